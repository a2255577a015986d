// name: symbol_relations
// doc: every direct relation touching a node (out and in), and every fact naming it as a qualifier
// params: $node_id (string, "Label:key")
// Rows carry `qualifiers` as the stored JSON string; the backend decodes it.
MATCH (n:Node {id: $node_id})
CALL (n) {
  MATCH (n)-[r]->(o:Node)
  WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
  RETURN 'out' AS direction, r AS rel, o AS other, null AS via, null AS role
  UNION ALL
  MATCH (n)<-[r]-(o:Node)
  WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
  RETURN 'in' AS direction, r AS rel, o AS other, null AS via, null AS role
  UNION ALL
  MATCH (n)<-[q:QUALIFIER]-(f:Fact)-[:SUBJECT]->(s:Node), (f)-[:OBJECT]->(o:Node), (s)-[r]->(o)
  WHERE r.key = f.key
  RETURN 'qualifier' AS direction, r AS rel, s AS other, o AS via, q.role AS role
}
RETURN direction, type(rel) AS type, rel.zh AS zh,
       other {.id, .label, .key, .name} AS other,
       CASE WHEN via IS NULL THEN null ELSE via {.id, .label, .key, .name} END AS via,
       role, rel.src AS src,
       CASE rel.variant WHEN '' THEN null ELSE rel.variant END AS variant,
       CASE rel.note WHEN '' THEN null ELSE rel.note END AS note,
       rel.qualifiers AS qualifiers, rel.fact AS fact
ORDER BY direction, type, other.id, fact, role
