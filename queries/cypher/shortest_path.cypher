// name: shortest_path
// doc: among all shortest paths over direct relations (either direction, never through Fact or Passage
//      nodes) the one whose node-id list is smallest, each hop taking its smallest relation type; no row when
//      unconnected (or when an end has no direct relation)
//      ($types null: a hub node (labels Polarity, Element: 陰陽 and the five phases) costs more than any other,
//       and so does a relation of the standard tables (ontology/schema/std.toml), so the path goes through
//       either only when no path avoids them (rank 1 before rank 2); a hop shows a seed relation before a
//       standard one;
//       $types, when given, limits every hop to those relation types and takes the plain shortest path)
// params: $source (string, node id), $target (string, node id), $types (list of relation types, or null for all)
MATCH (a:Node {id: $source}), (b:Node {id: $target})
WHERE NOT a.label IN ['Fact', 'Passage'] AND NOT b.label IN ['Fact', 'Passage']
  AND EXISTS { (a)-[r]-(x:Node) WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES'] AND NOT x.label IN ['Fact', 'Passage']
                                      AND ($types IS NULL OR type(r) IN $types) }
  AND EXISTS { (b)-[r]-(x:Node) WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES'] AND NOT x.label IN ['Fact', 'Passage']
                                      AND ($types IS NULL OR type(r) IN $types) }
CALL (a, b) {
  WITH a, b
  WHERE a = b
  RETURN 0 AS rank, [a] AS ns
  UNION
  WITH a, b
  WHERE a <> b AND $types IS NULL
  MATCH p = allShortestPaths((a)-[*]-(b))
  WHERE all(r IN relationships(p) WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES', 'MONTH_LOATHING',
                                                         'LIVING_BREATH', 'DEAD_BREATH', 'MOURNING_DOOR',
                                                         'CONDOLENCE_GUEST', 'NAYIN'])
    AND all(x IN nodes(p) WHERE x = a OR x = b OR NOT x.label IN ['Fact', 'Passage', 'Polarity', 'Element'])
  RETURN 1 AS rank, nodes(p) AS ns
  UNION
  WITH a, b
  WHERE a <> b
  MATCH p = allShortestPaths((a)-[*]-(b))
  WHERE all(r IN relationships(p) WHERE NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
                                       AND ($types IS NULL OR type(r) IN $types))
    AND all(x IN nodes(p) WHERE NOT x.label IN ['Fact', 'Passage'])
  RETURN 2 AS rank, nodes(p) AS ns
}
WITH rank, ns
ORDER BY rank, [x IN ns | x.id]
LIMIT 1
RETURN [x IN ns | x {.id, .label, .key, .name}] AS nodes,
       [i IN range(0, size(ns) - 2) |
         COLLECT {
           MATCH (u)-[r]-(v)
           WHERE u = ns[i] AND v = ns[i + 1] AND NOT type(r) IN ['SUBJECT', 'OBJECT', 'QUALIFIER', 'CITES']
             AND ($types IS NULL OR type(r) IN $types)
           RETURN type(r) AS t
           ORDER BY type(r) IN ['MONTH_LOATHING', 'LIVING_BREATH', 'DEAD_BREATH', 'MOURNING_DOOR',
                                'CONDOLENCE_GUEST', 'NAYIN'], t LIMIT 1
         }[0]] AS types
