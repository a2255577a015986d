// name: rule_checks
// doc: the ground checks of the rules' graph predicates, answered at once; one row `rows`: [id, hops] for each
//      witness of a check that holds (hops: [from, type, to, key, src, forward] each); the converter keeps the
//      smallest witness of each check (hops compared by (from, type, to, key)) and sorts by id
// params: $walks (list of [start, types, dirs, ends]; 1 to 3 steps, dirs 'out' | 'in' | 'either'; ends: a map from
//         each end node id to the checks that walk there, [id, role, value] each): the backend groups the checks so
//         (queries/neo4j_rows.py). A path check (role null) holds when the walk reaches its end; a fact check walks
//         its via steps and then its relation out to its object (as the vocabulary's vigour defines it:
//         X -T1-> m <-T2- subject), and the fact of the last relation must carry the qualifier role = value;
//         $variants (boolean): also walk the relations kept as variants of the text (r.variant not empty).
// how: one walk for all the checks of a start and steps, whatever their ends and qualifiers (the five vigours of a
//      branch, the kins and stages of a transmission: the server's work is per walk and step, so 733 checks cost as
//      much as their 240 walks). The walks advance one step at a time, up to three; at each step they are grouped
//      by (node, direction), so each node's relations are read once per step however many walks pass there
//      (relation types are data, so a read is of all the node's relations in that direction, kept when the type is
//      wanted), and a walk whose last step reaches none of its ends is dropped at once. Finished walks are set
//      aside (done1, done2) rather than carried through the later steps. The step is the same block at each depth
//      (Cypher has no loop over MATCH); it collects in a subquery of its own, so no aggregation is keyed on a list of
//      walks. A finished walk answers the checks of the end it reached.
UNWIND $walks AS c
WITH c[0] AS a, collect({types: c[1], dirs: c[2], ends: c[3]}) AS ws
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
      WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, true AS f
      UNION ALL
      WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, false AS f
      UNION ALL
      WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, startNode(r) = n AS f
    }
    RETURN collect([r, m, f, m.id, type(r)]) AS next
  }
  UNWIND todo AS x
  WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
  UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR w.ends[s[3]] IS NOT NULL)] AS s
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
        WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, true AS f
        UNION ALL
        WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, false AS f
        UNION ALL
        WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, startNode(r) = n AS f
      }
      RETURN collect([r, m, f, m.id, type(r)]) AS next
    }
    UNWIND todo AS x
    WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
    UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR w.ends[s[3]] IS NOT NULL)] AS s
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
          WITH n, d, ts WHERE d = 'out' MATCH (n)-[r]->(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, true AS f
          UNION ALL
          WITH n, d, ts WHERE d = 'in' MATCH (n)<-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, false AS f
          UNION ALL
          WITH n, d, ts WHERE d = 'either' MATCH (n)-[r]-(m) WHERE type(r) IN ts AND ($variants OR coalesce(r.variant, '') = '') RETURN r, m, startNode(r) = n AS f
        }
        RETURN collect([r, m, f, m.id, type(r)]) AS next
      }
      UNWIND todo AS x
      WITH x[0] AS w, x[1] AS ns, x[2] AS rs, x[3] AS fw, next
      UNWIND [s IN next WHERE s[4] = w.types[size(rs)] AND (size(rs) + 1 < size(w.types) OR w.ends[s[3]] IS NOT NULL)] AS s
      RETURN w, ns + s[1] AS ns, rs + s[0] AS rs, fw + s[2] AS fw, s[1] AS m
    }
    WITH m AS n, w, ns, rs, fw
    RETURN collect([w, ns, rs, fw]) AS done3
  }
  RETURN done2 + done3 AS later
}
UNWIND done1 + later AS x
// the checks of the end each finished walk reached
WITH x[1] AS ns, x[2] AS rs, x[3] AS fw, x[0].ends[x[1][-1].id] AS checks
UNWIND checks AS c
WITH c[0] AS id, c[1] AS role, c[2] AS value, ns, rs, fw
// the qualifier of a fact check's last relation: the facts qualified so, read once per (value, role)
WITH value, role, collect([id, ns, rs, fw]) AS done
CALL (value, role) {
  OPTIONAL MATCH (:Node {id: value})<-[q:QUALIFIER]-(f:Node) WHERE q.role = role
  RETURN collect(f.id) AS qualified
}
UNWIND done AS x
WITH x[0] AS id, x[1] AS ns, x[2] AS rs, x[3] AS fw, role, qualified
WHERE role IS NULL OR 'Fact:' + rs[-1].fact IN qualified
RETURN collect([id, [i IN range(0, size(rs) - 1) | [ns[i].id, type(rs[i]), ns[i + 1].id, rs[i].key, rs[i].src, fw[i]]]]) AS rows
