// name: relations_among
// doc: direct relations whose both ends are in $node_ids (the 刑沖破害合 among a chart's branches, …),
//      sorted by (type, source.id, target.id, fact)
// params: $node_ids (list of node ids)
MATCH (u:Node)-[r]->(v:Node)
WHERE u.id IN $node_ids AND v.id IN $node_ids AND NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
RETURN u {.id, .label, .key, .name} AS source, v {.id, .label, .key, .name} AS target,
       type(r) AS type, r.zh AS zh, r.src AS src,
       CASE r.variant WHEN '' THEN null ELSE r.variant END AS variant, r.fact AS fact
ORDER BY type, source.id, target.id, fact
