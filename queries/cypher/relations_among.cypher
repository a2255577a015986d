// name: relations_among
// doc: direct relations whose both ends are in $node_ids (the 刑沖破害合 among a chart's branches, …), as one row
//      `rows` sorted by (type, source.id, target.id, fact) (one record, not one per relation: less to fetch)
// params: $node_ids (list of node ids)
// how: each node's relations out are read once; the far end is checked against the nodes found (no id read)
MATCH (x:Node) WHERE x.id IN $node_ids
WITH collect(x) AS xs
UNWIND xs AS u
CALL (u, xs) {
  MATCH (u)-[r]->(v)
  WHERE v IN xs AND NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
  RETURN r, v
}
WITH u {.id, .label, .key, .name} AS source, v {.id, .label, .key, .name} AS target, type(r) AS type, r.zh AS zh,
     r.src AS src, CASE r.variant WHEN '' THEN null ELSE r.variant END AS variant, r.fact AS fact
ORDER BY type, source.id, target.id, fact
RETURN collect({source: source, target: target, type: type, zh: zh, src: src, variant: variant, fact: fact}) AS rows
