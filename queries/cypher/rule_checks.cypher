// name: rule_checks
// doc: the ground checks of the rules' graph predicates, answered at once; one row per check that holds
//      with its smallest witness (a list of hops [from, type, to, key, src, forward]); sorted by id
// params: $paths (list of {id, a, b, types, dirs}; 1 to 3 steps, dirs 'out' | 'in' | 'either'),
//         $facts (list of {id, relation, subject, object, role, value, via_types, via_dirs}; no via step,
//         or two steps walked out then in: X -T1-> m <-T2- subject, as the vocabulary's vigour defines it)
CALL () {
  UNWIND $paths AS c
  WITH c WHERE size(c.types) = 1
  MATCH (a:Node {id: c.a})-[r1:$(c.types[0])]-(b:Node {id: c.b})
  WHERE (c.dirs[0] = 'either' OR (c.dirs[0] = 'out') = (startNode(r1) = a))
  RETURN c.id AS id, [[a.id, type(r1), b.id, r1.key, r1.src, startNode(r1) = a]] AS hops
  UNION ALL
  UNWIND $paths AS c
  WITH c WHERE size(c.types) = 2
  MATCH (a:Node {id: c.a})-[r1:$(c.types[0])]-(x:Node)-[r2:$(c.types[1])]-(b:Node {id: c.b})
  WHERE (c.dirs[0] = 'either' OR (c.dirs[0] = 'out') = (startNode(r1) = a))
    AND (c.dirs[1] = 'either' OR (c.dirs[1] = 'out') = (startNode(r2) = x))
  RETURN c.id AS id, [[a.id, type(r1), x.id, r1.key, r1.src, startNode(r1) = a],
                      [x.id, type(r2), b.id, r2.key, r2.src, startNode(r2) = x]] AS hops
  UNION ALL
  UNWIND $paths AS c
  WITH c WHERE size(c.types) = 3
  MATCH (a:Node {id: c.a})-[r1:$(c.types[0])]-(x:Node)-[r2:$(c.types[1])]-(y:Node)-[r3:$(c.types[2])]-(b:Node {id: c.b})
  WHERE (c.dirs[0] = 'either' OR (c.dirs[0] = 'out') = (startNode(r1) = a))
    AND (c.dirs[1] = 'either' OR (c.dirs[1] = 'out') = (startNode(r2) = x))
    AND (c.dirs[2] = 'either' OR (c.dirs[2] = 'out') = (startNode(r3) = y))
  RETURN c.id AS id, [[a.id, type(r1), x.id, r1.key, r1.src, startNode(r1) = a],
                      [x.id, type(r2), y.id, r2.key, r2.src, startNode(r2) = x],
                      [y.id, type(r3), b.id, r3.key, r3.src, startNode(r3) = y]] AS hops
  UNION ALL
  UNWIND $facts AS c
  WITH c WHERE size(c.via_types) = 0
  MATCH (s:Node {id: c.subject})-[r:$(c.relation)]->(o:Node {id: c.object})
  MATCH (:Node {id: 'Fact:' + r.fact})-[q:QUALIFIER]->(:Node {id: c.value})
  WHERE q.role = c.role
  RETURN c.id AS id, [[s.id, type(r), o.id, r.key, r.src, true]] AS hops
  UNION ALL
  UNWIND $facts AS c
  WITH c WHERE size(c.via_types) = 2 AND c.via_dirs = ['out', 'in']
  MATCH (x:Node {id: c.subject})-[v1:$(c.via_types[0])]->(m:Node)
  MATCH (m)<-[v2:$(c.via_types[1])]-(s:Node)
  MATCH (s)-[r:$(c.relation)]->(o:Node {id: c.object})
  MATCH (:Node {id: 'Fact:' + r.fact})-[q:QUALIFIER]->(:Node {id: c.value})
  WHERE q.role = c.role
  RETURN c.id AS id, [[x.id, type(v1), m.id, v1.key, v1.src, startNode(v1) = x],
                      [m.id, type(v2), s.id, v2.key, v2.src, startNode(v2) = m],
                      [s.id, type(r), o.id, r.key, r.src, true]] AS hops
}
RETURN id, hops
ORDER BY id
