// bench/duckdb.mjs -- the DuckDB side of bench/duckdb.sh (see there).
//
//   node bench/duckdb.mjs convert OUT.parquet THREADS
//       reads dgsql's CSV of `SELECT * FROM accesses` on standard input
//       and writes it as one Parquet file (header-less CSV; empty field =
//       NULL, as SQLite's csv mode prints it)
//   node bench/duckdb.mjs query DIR THREADS SQL
//       runs SQL over DIR/*.parquet (views named after the files), prints
//       the rows as CSV on standard output and "SECONDS CPU" on standard
//       error: the query's own time inside this process, start-up excluded
//
// @duckdb/node-api is npm's DuckDB (not a Debian package): found through
// NODE_PATH, which duckdb.sh sets.  Copyright (C) 2026 the Datagrind
// authors.  SPDX-License-Identifier: GPL-2.0-or-later

import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const duck = require('@duckdb/node-api');

const ACCESS_COLUMNS = "{'icount': 'UBIGINT', 'addr': 'UBIGINT', " +
	"'size': 'UINTEGER', 'is_write': 'UTINYINT', 'pc': 'UBIGINT', " +
	"'thread': 'UINTEGER', 'context_id': 'UBIGINT', 'block_id': 'UBIGINT', " +
	"'aseq': 'UINTEGER', 'chunk_id': 'UBIGINT', 'module_id': 'UINTEGER'}";

// SQL string literal: paths come from the command line
const lit = (s) => "'" + String(s).replaceAll("'", "''") + "'";

async function open(threads) {
	const db = await duck.DuckDBInstance.create(':memory:', { threads: String(threads) });
	return db.connect();
}

async function convert(out, threads) {
	const c = await open(threads);
	await c.run(`COPY (SELECT * FROM read_csv('/dev/stdin', header = false, ` +
		`delim = ',', nullstr = '', columns = ${ACCESS_COLUMNS})) ` +
		`TO ${lit(out)} (FORMAT parquet, COMPRESSION zstd)`);
}

function csvField(v) {
	if (v === null || v === undefined) return '';
	const s = typeof v === 'bigint' ? v.toString() : String(v);
	return /[",\n]/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
}

async function query(dir, threads, sql) {
	const c = await open(threads);
	for (const f of readdirSync(dir).filter((f) => f.endsWith('.parquet')))
		await c.run(`CREATE VIEW "${f.slice(0, -8)}" AS SELECT * FROM ` +
			`read_parquet(${lit(dir + '/' + f)})`);
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const r = await c.runAndReadAll(sql);
	const rows = r.getRows();
	const t1 = performance.now();
	const cpu = process.cpuUsage(cpu0);
	process.stdout.write(rows.map((row) => row.map(csvField).join(',')).join('\n') +
		(rows.length ? '\n' : ''));
	process.stderr.write(`${((t1 - t0) / 1000).toFixed(3)} ` +
		`${((cpu.user + cpu.system) / 1e6).toFixed(3)}\n`);
}

const [mode, a, b, c] = process.argv.slice(2);
try {
	if (mode === 'convert') await convert(a, b || 2);
	else if (mode === 'query') await query(a, b || 2, c);
	else throw new Error(`unknown mode '${mode}'`);
} catch (e) {
	process.stderr.write(`duckdb.mjs: ${e.message}\n`);
	process.exit(1);
}
