// A SQLite database's schema, read from its schema table (page 1): each table's root page and
// column names, and each index's root page and columns, parsed from the CREATE statements the
// database keeps. Columns a later ALTER TABLE added are at the end of the statement; rows written
// before it lack them (read as NULL).

import { scanTable, type SqlValue } from './btree';
import { SqliteFormatError, type SqliteSnapshot } from './sqliteFile';

export interface TableInfo {
  name: string;
  root: number;
  columns: string[];
  /** The column that is the rowid (INTEGER PRIMARY KEY): stored as NULL, read as the rowid. */
  rowidColumn?: string;
  withoutRowid: boolean;
}

export interface IndexInfo {
  name: string;
  table: string;
  root: number;
  /** The indexed columns, in order (an expression reads as its text). */
  columns: string[];
}

export interface SqliteSchema {
  tables: Map<string, TableInfo>;
  indexes: IndexInfo[];
}

const text = (v: SqlValue | undefined) => (typeof v === 'string' ? v : '');

export async function readSchema(db: SqliteSnapshot): Promise<SqliteSchema> {
  const tables = new Map<string, TableInfo>();
  const indexes: IndexInfo[] = [];
  await scanTable(db, 1, 4, ({ values }) => {
    const [type, name, table, root, sql] = values;
    if (typeof root !== 'number' || root < 1) return;
    if (type === 'table' && typeof name === 'string') {
      const def = tableDefinition(text(sql));
      tables.set(name, { name, root, ...def });
    } else if (type === 'index' && typeof name === 'string' && typeof sql === 'string') {
      indexes.push({ name, table: text(table), root, columns: indexColumns(sql) });
    }
  });
  if (tables.size === 0 && db.pageCount > 1) throw new SqliteFormatError(db.file, 'page 1', 'a schema that names tables', 'none');
  return { tables, indexes };
}

/** The text between the first '(' and its matching ')' (quotes and nested parentheses skipped). */
function parenthesized(sql: string): string | undefined {
  const start = sql.indexOf('(');
  if (start < 0) return undefined;
  let depth = 0;
  for (let i = start; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      const end = sql.indexOf(close, i + 1);
      if (end < 0) return undefined;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return sql.slice(start + 1, i);
  }
  return undefined;
}

/** Splits at the commas that are not inside parentheses or quotes. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const end = list.indexOf(c === '[' ? ']' : c, i + 1);
      i = end < 0 ? list.length : end;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(list.slice(from).trim());
  return parts.filter((p) => p !== '');
}

/** The name a definition starts with, unquoted, and the rest. */
function leadingName(def: string): [string, string] {
  const m = /^\s*(?:"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|'((?:[^']|'')*)'|([^\s(,]+))/.exec(def);
  if (!m) return ['', def];
  const name = m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, '`') ?? m[3] ?? m[4]?.replace(/''/g, "'") ?? m[5] ?? '';
  return [name, def.slice(m[0].length)];
}

const TABLE_CONSTRAINT = /^(?:CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i;

export function tableDefinition(sql: string): Pick<TableInfo, 'columns' | 'rowidColumn' | 'withoutRowid'> {
  const body = parenthesized(sql) ?? '';
  const columns: string[] = [];
  let rowidColumn: string | undefined;
  const types = new Map<string, string>();
  let tablePrimaryKey: string[] | undefined;
  for (const def of topLevelParts(body)) {
    if (TABLE_CONSTRAINT.test(def)) {
      const pk = /PRIMARY\s+KEY\s*\(/i.exec(def);
      if (pk) tablePrimaryKey = topLevelParts(parenthesized(def.slice(pk.index)) ?? '').map((c) => leadingName(c)[0]);
      continue;
    }
    const [name, rest] = leadingName(def);
    columns.push(name);
    const type = /^\s*([A-Za-z]+)/.exec(rest)?.[1]?.toUpperCase() ?? '';
    types.set(name, type);
    if (type === 'INTEGER' && /\bPRIMARY\s+KEY\b(?!\s+DESC)/i.test(rest)) rowidColumn = name;
  }
  if (!rowidColumn && tablePrimaryKey?.length === 1 && types.get(tablePrimaryKey[0]!) === 'INTEGER') rowidColumn = tablePrimaryKey[0];
  const after = sql.slice(sql.lastIndexOf(')') + 1);
  const withoutRowid = /\bWITHOUT\s+ROWID\b/i.test(after);
  return { columns, ...(rowidColumn && !withoutRowid ? { rowidColumn } : {}), withoutRowid };
}

export function indexColumns(sql: string): string[] {
  const on = /\bON\s+(?:"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|\S+?)\s*\(/i.exec(sql);
  const list = on ? parenthesized(sql.slice(on.index)) : undefined;
  return topLevelParts(list ?? '').map((c) => leadingName(c)[0]);
}
