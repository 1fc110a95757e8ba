/* modules.c: `.modules` (see modules.h).  One query over the summary by pc
 * (sum_pc), its module and function (pcs, functions.origin), joined on the
 * code address (pc, module_id): a pc two modules held in turn counts for each.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "modules.h"

#include "shellctx.h"

#define BY(o) "sum(CASE f.origin WHEN '" o "' THEN s.accesses ELSE 0 END)"

static const char modules_sql[] =
	"SELECT coalesce(m.path, '?') AS module, sum(s.accesses) AS accesses, "
	BY("dwarf") " AS debug_info, " BY("symtab") " AS symbol_table, "
	BY("entry") " AS entry_address, "
	"sum(CASE WHEN f.id IS NULL THEN s.accesses ELSE 0 END) AS unnamed, "
	"m.symbols_from AS symbols_from, "
	"nullif(coalesce(m.problem || '; ', '') || coalesce(m.advice, ''), '') "
	"AS to_improve "
	"FROM sum_pc s LEFT JOIN pcs p "
	"ON p.pc = s.pc AND p.module_id = s.module_id "
	"LEFT JOIN functions f ON f.id = p.function_id "
	"LEFT JOIN modules m ON m.id = s.module_id "
	"GROUP BY m.id ORDER BY accesses DESC";

#define SHARE(o) "round(100.0 * " BY(o) " / max(sum(s.accesses), 1), 1)"

const char modules_stats_sql[] =
	"SELECT " SHARE("dwarf") " || '% debug info, ' || " SHARE("symtab")
	" || '% symbol table, ' || " SHARE("entry") " || '% entry address, ' || "
	"round(100.0 * sum(CASE WHEN f.id IS NULL THEN s.accesses ELSE 0 END) "
	"/ max(sum(s.accesses), 1), 1) || '% unnamed' "
	"FROM sum_pc s LEFT JOIN pcs p "
	"ON p.pc = s.pc AND p.module_id = s.module_id "
	"LEFT JOIN functions f ON f.id = p.function_id";

int modules_print(struct shell *sh, char **err)
{
	return sh->ops->exec(sh, modules_sql, NULL, 0, err);
}
