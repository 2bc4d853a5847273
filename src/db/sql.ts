/**
 * `db.sql`: a tagged template whose interpolations are always parameters, and whose queries
 * are lazy, so one can be a fragment of another.
 * @module
 */
import { notFound } from '../errors/index.js';

/** A compiled statement: the text with `$1`… placeholders, and their values in order. */
export interface CompiledSql {
  /** The statement text. */
  readonly text: string;
  /** The parameter values, `$1` first. */
  readonly params: readonly unknown[];
}

/** A piece of SQL that can be interpolated into a `db.sql` template. */
export class SqlFragment {
  readonly #strings: readonly string[];
  readonly #values: readonly unknown[];

  /** Use `db.sql`, `db.sql.join`, `db.sql.id` or `db.sql.empty`. */
  constructor(strings: readonly string[], values: readonly unknown[]) {
    if (strings.length !== values.length + 1) {
      throw new TypeError('a SQL fragment needs one more string than values');
    }
    this.#strings = strings;
    this.#values = values;
  }

  /** The statement text and parameters, fragments inlined and their parameters renumbered. */
  compile(): CompiledSql {
    const params: unknown[] = [];
    return { text: this.#into(params), params };
  }

  #into(params: unknown[]): string {
    let text = this.#strings[0]!;
    for (let i = 0; i < this.#values.length; i++) {
      const value = this.#values[i];
      if (value instanceof SqlFragment) text += value.#into(params);
      else {
        if (value === undefined) {
          throw new TypeError(
            `db.sql: the value of $${params.length + 1} is undefined; pass null for SQL NULL`,
          );
        }
        params.push(value);
        text += `$${params.length}`;
      }
      text += this.#strings[i + 1]!;
    }
    return text;
  }
}

/** Runs a compiled statement and resolves its rows. */
export type RowsRunner = (text: string, params: readonly unknown[]) => Promise<unknown[]>;

/**
 * A query written with `db.sql`: it runs when awaited (once; awaiting again gives the same
 * rows), and is a fragment when interpolated into another `db.sql` template.
 */
export class SqlQuery<Row> extends SqlFragment implements PromiseLike<Row[]> {
  readonly #run: RowsRunner;
  #rows: Promise<Row[]> | undefined;

  /** Use `db.sql`. */
  constructor(strings: readonly string[], values: readonly unknown[], run: RowsRunner) {
    super(strings, values);
    this.#run = run;
  }

  /** Runs the query (once) and resolves its rows. */
  // biome-ignore lint/suspicious/noThenProperty: a query is awaited like a promise, by design
  then<A = Row[], B = never>(
    onfulfilled?: ((rows: Row[]) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result().then(onfulfilled, onrejected);
  }

  /** Runs the query (once); `onrejected` handles its failure. */
  catch<B = never>(
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<Row[] | B> {
    return this.#result().catch(onrejected);
  }

  /** Runs the query (once); `onfinally` runs when it settles. */
  finally(onfinally?: (() => void) | null): Promise<Row[]> {
    return this.#result().finally(onfinally);
  }

  /** The only row; none is a 404 `NOT_FOUND` KError, more than one an error (a 500). */
  async one(): Promise<Row> {
    const rows = await this.#result();
    if (rows.length === 0) throw notFound();
    if (rows.length > 1) {
      throw new Error(`db.sql …one(): the query returned ${rows.length} rows, expected one`);
    }
    return rows[0]!;
  }

  /** The only row, or undefined when there is none; more than one is an error (a 500). */
  async maybeOne(): Promise<Row | undefined> {
    const rows = await this.#result();
    if (rows.length > 1) {
      throw new Error(`db.sql …maybeOne(): the query returned ${rows.length} rows, expected one`);
    }
    return rows[0];
  }

  #result(): Promise<Row[]> {
    if (this.#rows === undefined) {
      const { text, params } = this.compile();
      this.#rows = this.#run(text, params) as Promise<Row[]>;
    }
    return this.#rows;
  }
}

/** `db.sql`: the tag, and helpers for fragments. */
export interface Sql {
  /**
   * A query; every `${value}` is a parameter, every `${db.sql`…`}` a fragment.
   * @example const user = await db.sql<User>`select * from users where id = ${id}`.one();
   */
  <Row = Record<string, unknown>>(
    strings: TemplateStringsArray,
    ...values: unknown[]
  ): SqlQuery<Row>;
  /** A fragment with no SQL in it, for an optional part. */
  readonly empty: SqlFragment;
  /**
   * Values or fragments separated by `separator` (a comma by default).
   * @example db.sql`select * from users where id in (${db.sql.join(ids)})`
   */
  join(items: readonly unknown[], separator?: SqlFragment): SqlFragment;
  /** A quoted identifier (`"order"`); several names make a qualified one (`"public"."users"`). */
  id(...names: string[]): SqlFragment;
}

const COMMA = new SqlFragment([', '], []);

/** The `db.sql` tag over `run`. */
export function sqlTag(run: RowsRunner): Sql {
  const sql = <Row>(strings: TemplateStringsArray, ...values: unknown[]) =>
    new SqlQuery<Row>(strings, values, run);
  return Object.assign(sql, {
    empty: new SqlFragment([''], []),
    join(items: readonly unknown[], separator: SqlFragment = COMMA): SqlFragment {
      const values = items.flatMap((item, i) => (i === 0 ? [item] : [separator, item]));
      return new SqlFragment(Array(values.length + 1).fill(''), values);
    },
    id(...names: string[]): SqlFragment {
      if (names.length === 0 || names.some((n) => typeof n !== 'string' || n === '')) {
        throw new TypeError('db.sql.id: names must be non-empty strings');
      }
      return new SqlFragment([names.map((n) => `"${n.replaceAll('"', '""')}"`).join('.')], []);
    },
  }) as Sql;
}
