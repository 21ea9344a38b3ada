/**
 * A small wrapper over @duckdb/node-api: one instance + connection per
 * analysis, rows returned as plain JS objects with numbers (not bigints).
 * Big inputs use a temporary on-disk database so DuckDB can compress and
 * spill instead of holding every row in RAM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBResultReader } from '@duckdb/node-api';

export type Scalar = string | number | boolean | null;
export type Row = Record<string, Scalar | Scalar[]>;

/** One statement prepared: DuckDB's own statement type, run as prepared (so what runs is what was checked). */
export interface PreparedStatement {
  /** The StatementType name: SELECT, COPY, CREATE, ... */
  type: string;
  run(): Promise<{ columns: string[]; rows: Row[] }>;
  close(): void;
}

export interface DuckOptions {
  /** 'disk' keeps tables in a temporary database file (compressed, spillable). */
  storage?: 'memory' | 'disk';
  memoryLimit?: string;
  threads?: number;
  /** Where DuckDB spills when memory runs short (default: next to a disk database; an in-memory one needs it set to spill at all). */
  spillDirectory?: string;
}

export class Duck {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    private readonly tempDir: string | null,
  ) {}

  static async open(options: DuckOptions = {}): Promise<Duck> {
    const tempDir = options.storage === 'disk' ? mkdtempSync(join(tmpdir(), 'faultline-duck-')) : null;
    const config: Record<string, string> = {};
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    if (options.threads) config.threads = String(options.threads);
    if (tempDir) config.temp_directory = join(tempDir, 'spill');
    else if (options.spillDirectory) config.temp_directory = options.spillDirectory;
    const instance = await DuckDBInstance.create(tempDir ? join(tempDir, 'db.duckdb') : ':memory:', config);
    const connection = await instance.connect();
    // The in_clause optimizer takes seconds to plan the generated validity SQL (hundreds of IN lists); the gain is nil here.
    await connection.run(`SET disabled_optimizers = 'in_clause'`);
    // Row order is never relied on (line numbers come from WITH ORDINALITY, reports ORDER BY explicitly);
    // keeping insertion order makes loading into a table about 3x slower.
    await connection.run(`SET preserve_insertion_order = false`);
    return new Duck(instance, connection, tempDir);
  }

  async exec(sql: string): Promise<void> {
    await this.connection.run(sql);
  }

  async rows(sql: string): Promise<Row[]> {
    return (await this.query(sql)).rows;
  }

  /** Column names (in order) and rows of one statement. */
  async query(sql: string): Promise<{ columns: string[]; rows: Row[] }> {
    return readAll(await this.connection.runAndReadAll(sql));
  }

  /** DuckDB's own split of a SQL text into statements (a parse error throws); each is prepared only when asked for. */
  async statements(sql: string): Promise<{ count: number; prepare(index: number): Promise<PreparedStatement> }> {
    const extracted = await this.connection.extractStatements(sql);
    return {
      count: extracted.count,
      prepare: async (index) => {
        const prepared = await extracted.prepare(index);
        return {
          type: StatementType[prepared.statementType] ?? String(prepared.statementType),
          run: async () => readAll(await prepared.runAndReadAll()),
          close: () => prepared.destroySync(),
        };
      },
    };
  }

  /** From here on: no file, network or extension access beyond the database itself, and no setting can be changed back. */
  async lockDown(): Promise<void> {
    await this.connection.run(`SET enable_external_access = false`);
    await this.connection.run(`SET lock_configuration = true`);
  }


  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }
}

function readAll(reader: DuckDBResultReader): { columns: string[]; rows: Row[] } {
  const rows = reader.getRowObjectsJS().map((row) => {
    const out: Row = {};
    for (const [key, value] of Object.entries(row)) out[key] = toScalar(value);
    return out;
  });
  return { columns: reader.columnNames(), rows };
}

function toScalar(value: unknown): Scalar | Scalar[] {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => toScalar(v) as Scalar);
  if (value instanceof Date) return value.toISOString();
  // Structs, maps, blobs: shown as JSON text in ad-hoc query output.
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
}

/** SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
