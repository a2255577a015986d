// name: facts
// doc: facts citing document $doc (all when null) and touching $node_id as subject, object or qualifier
//      (all when null), in the export shape of `leishen facts`; sorted by (file, row)
// params: $doc (string or null), $node_id (string or null)
// Rows carry `qualifiers` as the stored JSON string and `node_qualifiers` as [{role, end}]; the backend merges them.
CALL () {
  MATCH (:Node {id: $node_id})<-[:SUBJECT|OBJECT|QUALIFIER]-(f:Fact)
  RETURN DISTINCT f
  UNION
  MATCH (f:Fact)
  WHERE $node_id IS NULL
  RETURN f
}
WITH f
WHERE $doc IS NULL OR any(s IN f.src WHERE s STARTS WITH $doc + ':')
MATCH (f)-[:SUBJECT]->(s:Node), (f)-[:OBJECT]->(o:Node), (s)-[r]->(o)
WHERE r.key = f.key
RETURN f.key AS id, f.relation AS relation, r.zh AS zh,
       s {.label, .key, .name} AS subject, o {.label, .key, .name} AS object,
       f.qualifiers AS qualifiers,
       COLLECT { MATCH (f)-[q:QUALIFIER]->(x:Node) RETURN {role: q.role, end: x {.label, .key, .name}} } AS node_qualifiers,
       f.src AS src,
       CASE f.variant WHEN '' THEN null ELSE f.variant END AS variant,
       CASE f.note WHEN '' THEN null ELSE f.note END AS note,
       CASE f.item WHEN '' THEN null ELSE f.item END AS item
ORDER BY f.file, f.row
