// name: rule_checks
// doc: the ground checks of the rules' graph predicates, answered at once; one row `rows`: [id, hops] for each
//      witness of a check that holds (hops: [from, type, to, key, src, forward] each); the converter keeps the
//      smallest witness of each check (hops compared by (from, type, to, key)) and sorts by id
// params: $paths (list of [id, a, b, types, dirs]; 1 to 3 steps, dirs 'out' | 'in' | 'either'),
//         $facts (list of [id, relation, subject, object, role, value, via_types, via_dirs]; the via steps lead from
//         the subject to the fact's subject, as the vocabulary's vigour defines it: X -T1-> m <-T2- subject);
//         positional lists, not maps: the backend encodes the checks so (queries/neo4j_rows.py), fewer bytes
// how: every check is a walk from a node (a path: a to b by its steps; a fact: the via steps, then the relation out
//      to the object, whose fact must carry the qualifier role = value). The walks advance one step at a time, up to
//      three; at each step they are grouped by (node, direction), so each node's relations are read once per step
//      however many checks start there (relation types are data, so a read is of all the node's relations in that
//      direction, kept when the type is wanted), and a walk whose last step misses its end is dropped at once.
//      Finished walks are set aside (done1, done2) rather than carried through the later steps. The step is the
//      same block at each depth (Cypher has no loop over MATCH); it collects in a subquery of its own, so no
//      aggregation is keyed on a list of walks.
CALL () {
  UNWIND $paths AS c
  RETURN c[0] AS id, c[1] AS a, c[2] AS b, c[3] AS types, c[4] AS dirs, null AS role, null AS value
  UNION ALL
  UNWIND $facts AS c
  RETURN c[0] AS id, c[2] AS a, c[3] AS b, c[6] + [c[1]] AS types, c[7] + ['out'] AS dirs, c[4] AS role, c[5] AS value
}
WITH a, collect({id: id, b: b, types: types, dirs: dirs, role: role, value: value}) AS ws
MATCH (n:Node {id: a})
UNWIND ws AS w
// the walks, each from its start node: nodes passed (ns), relations taken (rs), their directions (fw)
WITH n, w, [n] AS ns, [] AS rs, [] AS fw
// one step of every walk in the rows (n, w, ns, rs, fw): grouped by (node, direction), each node read once
WITH n, w.dirs[size(rs)] AS d, collect([w, ns, rs, fw]) AS todo
CALL (n, d, todo) {
  CALL (todo) { UNWIND todo AS x RETURN collect(DISTINCT x[0].types[size(x[2])]) AS ts }
  CALL (n, d, ts) {
    CALL (n, d, ts) {
      WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts RETURN r, m, true AS f
      UNION ALL
      WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts RETURN r, m, false AS f
      UNION ALL
      WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts RETURN r, m, startNode(r) = n AS f
    }
    RETURN collect([r, m, f, m.id, type(r)]) AS next
  }
  UNWIND todo AS x
  WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
  UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR s[3] = w.b)] AS s
  RETURN w, ns + s[1] AS ns, rs + s[0] AS rs, fw + s[2] AS fw, s[1] AS m
}
WITH m AS n, w, ns, rs, fw
WITH collect(CASE WHEN size(rs) = size(w.types) THEN [w, ns, rs, fw] END) AS done1,
     collect(CASE WHEN size(rs) < size(w.types) THEN [n, w, ns, rs, fw] END) AS todo1
CALL (todo1) {
  UNWIND todo1 AS x
  WITH x[0] AS n, x[1] AS w, x[2] AS ns, x[3] AS rs, x[4] AS fw
  // one step of every walk in the rows (n, w, ns, rs, fw): grouped by (node, direction), each node read once
  WITH n, w.dirs[size(rs)] AS d, collect([w, ns, rs, fw]) AS todo
  CALL (n, d, todo) {
    CALL (todo) { UNWIND todo AS x RETURN collect(DISTINCT x[0].types[size(x[2])]) AS ts }
    CALL (n, d, ts) {
      CALL (n, d, ts) {
        WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts RETURN r, m, true AS f
        UNION ALL
        WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts RETURN r, m, false AS f
        UNION ALL
        WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts RETURN r, m, startNode(r) = n AS f
      }
      RETURN collect([r, m, f, m.id, type(r)]) AS next
    }
    UNWIND todo AS x
    WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
    UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR s[3] = w.b)] AS s
    RETURN w, ns + s[1] AS ns, rs + s[0] AS rs, fw + s[2] AS fw, s[1] AS m
  }
  WITH m AS n, w, ns, rs, fw
  WITH collect(CASE WHEN size(rs) = size(w.types) THEN [w, ns, rs, fw] END) AS done2,
       collect(CASE WHEN size(rs) < size(w.types) THEN [n, w, ns, rs, fw] END) AS todo2
  CALL (todo2) {
    UNWIND todo2 AS x
    WITH x[0] AS n, x[1] AS w, x[2] AS ns, x[3] AS rs, x[4] AS fw
    // one step of every walk in the rows (n, w, ns, rs, fw): grouped by (node, direction), each node read once
    WITH n, w.dirs[size(rs)] AS d, collect([w, ns, rs, fw]) AS todo
    CALL (n, d, todo) {
      CALL (todo) { UNWIND todo AS x RETURN collect(DISTINCT x[0].types[size(x[2])]) AS ts }
      CALL (n, d, ts) {
        CALL (n, d, ts) {
          WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts RETURN r, m, true AS f
          UNION ALL
          WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts RETURN r, m, false AS f
          UNION ALL
          WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts RETURN r, m, startNode(r) = n AS f
        }
        RETURN collect([r, m, f, m.id, type(r)]) AS next
      }
      UNWIND todo AS x
      WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
      UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR s[3] = w.b)] AS s
      RETURN w, ns + s[1] AS ns, rs + s[0] AS rs, fw + s[2] AS fw, s[1] AS m
    }
    WITH m AS n, w, ns, rs, fw
    RETURN collect([w, ns, rs, fw]) AS done3
  }
  RETURN done2 + done3 AS later
}
UNWIND done1 + later AS x
WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw
// the qualifier of a fact check's last relation: the facts qualified so, read once per (value, role)
WITH w.value AS value, w.role AS role, collect([w, ns, rs, fw]) AS done
CALL (value, role) {
  OPTIONAL MATCH (:Node {id: value})<-[q:QUALIFIER]-(f:Node) WHERE q.role = role
  RETURN collect(f.id) AS qualified
}
UNWIND done AS x
WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, qualified
WHERE w.role IS NULL OR 'Fact:' + rs[-1].fact IN qualified
RETURN collect([w.id, [i IN range(0, size(rs) - 1) | [ns[i].id, type(rs[i]), ns[i + 1].id, rs[i].key, rs[i].src, fw[i]]]]) AS rows
