// name: relations_from
// doc: the relations of the given types leaving the given nodes (the 類象 of a chart's slots, …), as one row `rows`
//      sorted by (source.id, type, target.id, fact) (one record, not one per relation: less to fetch)
// params: $node_ids (list of node ids), $types (list of relation types)
MATCH (u:Node) WHERE u.id IN $node_ids
CALL (u) {
  MATCH (u)-[r]->(v)
  WHERE type(r) IN $types
  RETURN r, v
}
WITH u {.id, .label, .key, .name} AS source, v {.id, .label, .key, .name} AS target, type(r) AS type, r.src AS src,
     r.qualifiers AS qualifiers, CASE r.variant WHEN '' THEN null ELSE r.variant END AS variant, r.fact AS fact
ORDER BY source.id, type, target.id, fact
RETURN collect({source: source, target: target, type: type, src: src, qualifiers: qualifiers, variant: variant,
                fact: fact}) AS rows
