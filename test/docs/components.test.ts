import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaRegistry } from '../../src/docs/components.js';

// How the registry names shared schemas: an id is a component, its input side gets `<id>Input`
// when it (or an id it refers to) differs from its output side, a recursive schema without an
// id is named after its route part, and names never clash.

const PROBLEM = { Problem: { type: 'object' } };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

interface Tree {
  name: string;
  kids: Tree[];
}
const Tree: z.ZodType<Tree> = z.object({
  name: z.string(),
  get kids() {
    return z.array(Tree);
  },
});

describe('SchemaRegistry', () => {
  it('names ids, splits the input side of one that differs and of ids that refer to it', () => {
    const Member = z.object({ name: z.string(), role: z.string().default('member') }).meta({
      id: 'Member',
    });
    const Handle = z.string().min(1).meta({ id: 'Handle' });
    const Members = z.array(Member).meta({ id: 'Members' });
    const Query = z.object({ a: Handle }).meta({ id: 'Query' });
    // Only ever sent: named by its id even though it refers to an id whose sides differ.
    const Cart = z.object({ who: Member }).meta({ id: 'Cart' });
    const r = new SchemaRegistry();
    const cart = r.add(Cart, 'input', 'cart', 'C');
    // A property named $ref is a name, not a reference.
    const odd = r.add(z.object({ $ref: z.string() }), 'output', 'odd', 'Odd');
    // A made-up name that an id already has gets a number.
    const clash = r.add(Tree, 'output', 'tree', 'Member');
    const refs = [
      r.add(Members, 'input', 'body', 'B'),
      r.add(Members, 'output', 'response', 'O'),
      r.add(Handle, 'input', 'query', 'N'),
      r.add(Handle, 'output', 'response', 'N'),
      r.add(Query, 'input', 'query', 'Q'),
    ];
    const components = r.finish(PROBLEM);
    expect(refs.map((x) => x.schema())).toEqual([
      ref('MembersInput'),
      ref('Members'),
      ref('Handle'),
      ref('Handle'),
      ref('Query'),
    ]);
    // Sorted by name, Keelson's own included.
    expect(Object.keys(components)).toEqual([
      'Cart',
      'Handle',
      'Member',
      'Member2',
      'MemberInput',
      'Members',
      'MembersInput',
      'Problem',
      'Query',
    ]);
    expect(components.Members).toEqual({ type: 'array', items: ref('Member') });
    expect(components.MembersInput).toEqual({ type: 'array', items: ref('MemberInput') });
    expect(components.MemberInput?.required).toEqual(['name']);
    expect(components.Member?.required).toEqual(['name', 'role']);
    expect(refs[4]!.objectShape()).toEqual({ properties: { a: ref('Handle') }, required: ['a'] });
    expect(refs[2]!.objectShape()).toBeUndefined();
    expect(cart.schema()).toEqual(ref('Cart'));
    expect(components.Cart).toMatchObject({ properties: { who: ref('MemberInput') } });
    expect(odd.schema()).toMatchObject({ properties: { $ref: { type: 'string' } } });
    expect(clash.schema()).toEqual(ref('Member2'));
    // Finishing again changes nothing.
    expect(r.finish({})).toBe(components);
  });

  it('names a recursive schema without an id after its route part, uniquely', () => {
    const r = new SchemaRegistry();
    const pair = r.add(z.object({ l: Tree, r: Tree }), 'output', 'p', 'GetP');
    const tree = r.add(Tree, 'output', 't', 'GetT');
    const again = r.add(Tree, 'output', 'elsewhere', 'Other');
    const other = r.add(
      z.lazy(() => z.array(Tree)),
      'output',
      'x',
      'GetT',
    );
    interface Node {
      next?: Node | undefined;
    }
    const Node: z.ZodType<Node> = z.object({
      get next() {
        return Node.optional();
      },
    });
    const third = r.add(Node, 'output', 'n', 'GetT');
    const components = r.finish(PROBLEM);
    expect(pair.schema()).toMatchObject({
      properties: { l: ref('GetPschema0'), r: ref('GetPschema0') },
    });
    expect(tree.schema()).toEqual(ref('GetT'));
    // The same schema value is converted once: the first route part names it.
    expect(again.schema()).toEqual(ref('GetT'));
    expect(again.part).toBe('t');
    expect(components.GetT).toMatchObject({
      properties: { kids: { type: 'array', items: ref('GetT') } },
    });
    expect(components.GetPschema0).toMatchObject({
      properties: { kids: { items: ref('GetPschema0') } },
    });
    expect(other.schema()).toEqual({ type: 'array', items: ref('GetTschema0') });
    expect(third.schema()).toEqual(ref('GetT2'));
    expect(Object.keys(components)).toEqual([
      'GetPschema0',
      'GetT',
      'GetT2',
      'GetTschema0',
      'Problem',
    ]);
  });

  it('refuses an id that is no component name, names two schemas, or is Keelson’s', () => {
    const bad = new SchemaRegistry();
    expect(() =>
      bad.add(z.string().meta({ id: 'a b' }), 'input', 'route GET /x: query', 'X'),
    ).toThrow(
      'route GET /x: query: schema id "a b" cannot name an OpenAPI component (letters, digits, ".", "-" and "_" only)',
    );
    const twice = new SchemaRegistry();
    twice.add(z.object({ v: z.string().meta({ id: 'Twin' }) }), 'output', 'first', 'A');
    expect(() =>
      twice.add(z.object({ w: z.number().meta({ id: 'Twin' }) }), 'output', 'second', 'B'),
    ).toThrow(
      'schema id "Twin" names two different schemas: one in first, another in second; give each its own id',
    );
    const same = new SchemaRegistry();
    const Shared = z.number().meta({ id: 'Shared' });
    same.add(z.object({ a: Shared }), 'output', 'one', 'A');
    expect(() => same.add(z.object({ b: Shared }), 'output', 'two', 'B')).not.toThrow();
    const keelson = new SchemaRegistry();
    keelson.add(z.string().meta({ id: 'Problem' }), 'output', 'p', 'P');
    expect(() => keelson.finish(PROBLEM)).toThrow(
      'schema id "Problem" is needed for the schema with id "Problem" but already names Keelson; rename one of them',
    );
    const input = new SchemaRegistry();
    input.add(z.object({ a: z.string().default('x') }).meta({ id: 'Thing' }), 'input', 'i', 'I');
    input.add(z.object({ a: z.string() }).meta({ id: 'ThingInput' }), 'output', 'o', 'O');
    input.add(z.object({ a: z.string().default('x') }).meta({ id: 'Thing' }), 'output', 'o2', 'O');
    expect(() => input.finish({})).toThrow(
      /schema id "ThingInput" is needed for .* but already names/,
    );
  });
});
