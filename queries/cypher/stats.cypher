// name: stats
// doc: node counts by label and relation counts by type (one row: nodes, relations as [key, count] pairs)
// params: (none)
CALL () {
  MATCH (n:Node)
  WITH n.label AS label, count(*) AS c
  ORDER BY label
  RETURN collect([label, c]) AS nodes
}
CALL () {
  MATCH (:Node)-[r]->(:Node)
  WITH type(r) AS type, count(*) AS c
  ORDER BY type
  RETURN collect([type, c]) AS relations
}
RETURN nodes, relations
