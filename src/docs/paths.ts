/**
 * Route paths as OpenAPI paths: `:name` → `{name}`, a regex constraint → `pattern`, an optional
 * last parameter → two paths, the wildcard `*` → a parameter named `wildcard`.
 * @module
 */

/** One path parameter of an OpenAPI path. */
export interface PathParam {
  /** Its name in the path template (`wildcard` for `*`). */
  readonly name: string;
  /** Its name in the route's params (`*` for the wildcard). */
  readonly key: string;
  /** The route's regex constraint, as a JSON Schema `pattern`. */
  readonly pattern?: string;
}

/** One OpenAPI path a route answers on. */
export interface PathVariant {
  /** The template, e.g. `/files/{name}`. */
  readonly template: string;
  /** Its parameters, in order. */
  readonly params: readonly PathParam[];
  /** The optional parameter this variant leaves out, if any. */
  readonly without?: string;
}

/** The name the wildcard `*` gets in the document. */
export const WILDCARD = 'wildcard';

/** `:name`, then an optional `(regex)` (which may hold escaped parentheses), then `?`. */
const PARAM = /:([A-Za-z0-9_]+)(?:\(((?:\\.|[^\\)])*)\))?(\?)?/g;

/** The OpenAPI paths of a route path: one, or two when its last parameter is optional. */
export function pathVariants(path: string): PathVariant[] {
  // `::` is a literal colon to the router.
  const escaped = path.replaceAll('::', '\u{1}');
  const params: PathParam[] = [];
  let optional: string | undefined;
  let template = escaped.replace(PARAM, (_m, name: string, pattern?: string, opt?: string) => {
    params.push(pattern ? { name, key: name, pattern } : { name, key: name });
    if (opt) optional = name;
    return `{${name}}`;
  });
  if (template.endsWith('*')) {
    template = `${template.slice(0, -1)}{${WILDCARD}}`;
    params.push({ name: WILDCARD, key: '*' });
  }
  const colons = (t: string) => t.replaceAll('\u{1}', ':');
  const full: PathVariant = { template: colons(template), params };
  if (!optional) return [full];
  const shorter = template.replace(new RegExp(`/?\\{${optional}\\}$`), '') || '/';
  return [
    full,
    {
      template: colons(shorter),
      params: params.filter((p) => p.name !== optional),
      without: optional,
    },
  ];
}
