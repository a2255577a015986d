// name: resolve
// doc: nodes a user's name, alias, ko or en reading denotes (Fact and Passage nodes excluded);
//      tier 0 when $q is the name or an alias, 1 when it is the ko reading, else 2; sorted by (tier, id)
// params: $q (string, already lower-cased by the caller)
MATCH (n:Node)
WHERE $q IN n.lookup AND NOT n.label IN ['Fact', 'Passage']
WITH n, CASE
          WHEN $q = n.name OR $q IN coalesce(n.aliases, []) THEN 0
          WHEN $q = n.ko THEN 1
          ELSE 2
        END AS tier
RETURN n.id AS id, n.label AS label, n.key AS key, n.name AS name, n.ko AS ko, n.en AS en, tier
ORDER BY tier, id
