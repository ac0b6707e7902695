import fc from 'fast-check';

/**
 * Request bodies for the fuzz (issue 18 item 6), drawn from an endpoint's valibot request schema:
 * valid bodies (the schema's shape with real ids where a field names a lead), valid bodies with
 * one value anywhere in them replaced or removed, and hostile bodies. A case is either a JSON
 * value, sent as JSON.stringify gives it, or a raw text for what JSON.stringify cannot say (a key
 * `__proto__`, nesting deeper than it recurses, text that is not JSON).
 */

/** What the fuzz knows of the database before it starts: real ids for fields that name them. */
export interface FuzzPool {
  uuids: string[];
  sessionIds: string[];
  deviceUuids: string[];
  leadIds: number[];
  quoteIds: number[];
  merchantReferences: string[];
  /** Today on the server's clock, "YYYY-MM-DD", so dates land near the trips customers ask for. */
  today: string;
  /** Bodies the server accepted, by endpoint path: valid bodies to send again and to mutate. */
  examples: Record<string, unknown[]>;
}

export type FuzzCase = { kind: 'valid' | 'mutated' | 'hostile'; json: unknown } | { kind: 'hostile'; raw: string; label: string };

/** The body text a case is sent as. */
export function caseText(fuzzCase: FuzzCase): string {
  if ('raw' in fuzzCase) return fuzzCase.raw;
  return fuzzCase.json === undefined ? '' : JSON.stringify(fuzzCase.json);
}

/* A loose view of valibot's schema objects: type, its pipe's actions and its parts. */
interface SchemaNode {
  type: string;
  pipe?: { type: string; requirement?: unknown; kind?: string }[];
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  options?: unknown[];
  key?: SchemaNode;
  value?: SchemaNode;
  literal?: unknown;
}

const COUNTRY_IDS = [250, 276, 380, 422, 724, 792, 826, 840];
/** The demo insurers (seed-data.ts). */
const INSURER_IDS = [3, 7, 12, 1000];

/** Text customers really type and the text attackers send: Arabic, emoji, bidi marks, digits of other scripts. */
export const TRICKY_TEXT = [
  'رانيا حداد',
  'مرحبا بكم في سفر',
  '٠٣ ٥٥٥ ٤٥٥',
  '۰۳۵۵۵۴۵۵',
  '١٢٣٤',
  '👨‍👩‍👧‍👦',
  '🇱🇧✈️🏝️',
  'e\u0301te\u0301',
  '\u202Egnp.exe',
  '\u200B\u200D\uFEFF',
  'ﷺ',
  "O'Brien-Smith",
  '<script>alert(1)</script>',
  "'; drop table leads; --",
  '%00%0a',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
];

const CONTROL_TEXT = ['\u0000', 'a\u0001b', 'line\nbreak', 'tab\there', '\u001B[31m', 'bell\u0007', '\u007F', '\u0085next', 'x\u2028y'];
const LONE_SURROGATES = ['\uD800', 'a\uDFFFb', '\uDBFF', '\uDC00\uD800', '😀'.charAt(0)];
const ARABIC_NUMBERS = ['٣', '١٢٣', '٣٫٥', '۴۲', '-٧', '١e٣', '٠٠١'];
/** Dates a calendar or a database may not hold, in the shapes forms send. */
const ODD_DATES = ['2026-02-29', '2028-02-29', '2026-02-30', '0000-00-00', '0001-01-01', '9999-12-31', '2026-13-01', '+275760-09-13', '2026-04-01T00:00:00Z', '٢٠٢٦-٠٤-٠١', '01/04/2026', '2026-4-1', '1899-12-31'];

const isoDate = (today: string, key: string) =>
  fc.integer(key === 'dob' ? { min: -30_000, max: -200 } : { min: -5, max: 120 }).map((days) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10));

const action = (node: SchemaNode, type: string) => node.pipe?.find((item) => item.type === type);
const requirement = (node: SchemaNode, type: string) => action(node, type)?.requirement as number | undefined;

/** A valid-shaped value of one schema node; `key` is the field's name, for ids that must be real. */
function validOf(node: SchemaNode, pool: FuzzPool, key: string | null): fc.Arbitrary<unknown> {
  const fromPool = <T>(values: T[], otherwise: fc.Arbitrary<unknown>) =>
    values.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 4 }, { arbitrary: otherwise, weight: 1 }) : otherwise;
  switch (node.type) {
    case 'optional':
    case 'nullish':
    case 'exact_optional':
    case 'undefinedable':
      return validOf(node.wrapped!, pool, key);
    case 'nullable':
      return fc.oneof({ arbitrary: validOf(node.wrapped!, pool, key), weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
    case 'object':
    case 'loose_object':
    case 'strict_object': {
      const entries = node.entries ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [name, entry] of Object.entries(entries)) {
        model[name] = validOf(entry, pool, name);
        if (!['optional', 'nullish', 'exact_optional', 'undefinedable'].includes(entry.type)) required.push(name);
      }
      return fc.record(model, { requiredKeys: required }).map(coherent);
    }
    case 'array': {
      const max = Math.min(requirement(node, 'max_length') ?? 6, key === 'travellers_info' ? 4 : 6);
      // A trip has a destination and a traveller; an empty list is the mutations' business.
      const min = action(node, 'non_empty') || key === 'travellers_info' || key === 'destination_id' ? 1 : 0;
      return fc.array(validOf(node.item!, pool, key), { minLength: min, maxLength: Math.max(min, key === 'destination_id' ? 2 : max) });
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), validOf(node.value!, pool, null), { maxKeys: 4 });
    case 'picklist':
    case 'enum':
      return fc.constantFrom(...(node.options as unknown[]));
    case 'union':
      return fc.oneof(...(node.options as SchemaNode[]).map((option) => validOf(option, pool, key)));
    case 'literal':
      return fc.constant(node.literal);
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'number': {
      const min = requirement(node, 'min_value');
      const max = requirement(node, 'max_value');
      const integer = action(node, 'integer') !== undefined;
      const base = integer
        ? fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 })
        : fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
      if (key === 'lead_id') return fromPool(pool.leadIds, base);
      if (key === 'policy_id') return fromPool(pool.quoteIds, base);
      if (key && /(^|_)(destination|source|country|nationality)_id$/.test(key)) return fromPool(COUNTRY_IDS, base);
      if (key === 'agent_id') return fc.oneof({ arbitrary: fc.constant(Math.max(min ?? 0, 0)), weight: 4 }, { arbitrary: base, weight: 1 });
      if (key === 'insurance_provider_id' || key === 'insurance_id') return fromPool(INSURER_IDS, base);
      if (key === 'no_of_traveller') return fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 4 }, { arbitrary: base, weight: 1 });
      if (key === 'relationship_type_id' || key === 'gender_id' || key === 'marital_status_id' || key === 'type') return fc.integer({ min: 1, max: 5 });
      if (key && /_id$/.test(key) && integer) return fc.oneof(fc.integer({ min: Math.max(min ?? 0, 0), max: 12 }), base);
      return base;
    }
    case 'string':
      return validString(node, pool, key);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function validString(node: SchemaNode, pool: FuzzPool, key: string | null): fc.Arbitrary<unknown> {
  const max = requirement(node, 'max_length') ?? 60;
  const min = requirement(node, 'min_length') ?? (action(node, 'non_empty') ? 1 : 0);
  const patterns = (node.pipe ?? []).filter((a) => a.type === 'regex').map((a) => a.requirement as RegExp);
  let base: fc.Arbitrary<string>;
  if (action(node, 'uuid')) base = fc.uuid();
  else if (action(node, 'email')) base = fc.emailAddress();
  else if (action(node, 'url')) base = fc.webUrl({ validSchemes: ['https', 'http'] });
  else if (patterns.length > 0) base = fc.stringMatching(patterns[0]!);
  else base = fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 40) }), fc.constantFrom(...TRICKY_TEXT));
  const fits = (text: string) => text.length >= min && text.length <= max && patterns.every((pattern) => pattern.test(text));
  base = base.map((text) => text.slice(0, max)).filter(fits);
  if (key === 'uuid') return fc.oneof({ arbitrary: pool.uuids.length > 0 ? fc.constantFrom(...pool.uuids) : base, weight: 5 }, { arbitrary: base, weight: 1 });
  if (key === 'session_id' && pool.sessionIds.length > 0) return fc.oneof({ arbitrary: fc.constantFrom(...pool.sessionIds), weight: 3 }, { arbitrary: base, weight: 1 });
  if (key === 'device_uuid' && pool.deviceUuids.length > 0) return fc.oneof({ arbitrary: fc.constantFrom(...pool.deviceUuids), weight: 3 }, { arbitrary: base, weight: 1 });
  if (key === 'merchant_reference' && pool.merchantReferences.length > 0) return fc.oneof(fc.constantFrom(...pool.merchantReferences), base);
  if (key && /date|dob/.test(key)) return fc.oneof({ arbitrary: isoDate(pool.today, key), weight: 6 }, { arbitrary: fc.constantFrom(...ODD_DATES), weight: 1 }, { arbitrary: base, weight: 1 });
  if (key === 'email') return fc.oneof({ arbitrary: fc.stringMatching(/^[a-z]{3,10}\d{0,4}@example\.com$/), weight: 4 }, { arbitrary: fc.emailAddress(), weight: 1 }).filter((text) => text.length <= max);
  if (key === 'phone_country_code') return fc.oneof({ arbitrary: fc.constant('+961'), weight: 4 }, { arbitrary: fc.constantFrom('+33', '+1', '+971'), weight: 1 });
  if (key === 'phone_number') return fc.oneof({ arbitrary: fc.stringMatching(/^(3|7[01689])\d{6}$/), weight: 4 }, { arbitrary: base, weight: 1 });
  if (key === 'name' || key === 'first_name' || key === 'last_name') return fc.oneof({ arbitrary: fc.constantFrom('Rania Haddad', 'Karim', 'Lina Khoury'), weight: 3 }, { arbitrary: base, weight: 1 });
  return base;
}

/**
 * Most valid-shaped trips made coherent, as a form would send them: a traveller per person
 * counted, the end after the start. The rest keep their random figures, for the rules to refuse.
 */
function coherent(body: Record<string, unknown>): Record<string, unknown> {
  const fixed = { ...body };
  if (Array.isArray(fixed.travellers_info) && typeof fixed.no_of_traveller === 'number' && fixed.travellers_info.length > 0) {
    fixed.no_of_traveller = fixed.travellers_info.length;
  }
  if (typeof fixed.start_date === 'string' && typeof fixed.end_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(fixed.start_date)) {
    const start = Date.parse(`${fixed.start_date}T00:00:00Z`);
    // An impossible start (2026-13-01) stays as drawn, for the rules to refuse.
    if (Number.isFinite(start)) fixed.end_date = new Date(start + (fixed.end_date.length % 20) * 86_400_000).toISOString().slice(0, 10);
  }
  return fixed;
}

/** A hostile value: the wrong type, text no field may hold, extremes of size, depth and number. */
export function hostileValue(): fc.Arbitrary<unknown> {
  const text = (parts: string[]) => fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...parts), fc.string({ maxLength: 6 })).map(([a, b, c]) => a + b + c);
  return fc.oneof(
    fc.integer(),
    fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, 5e-324, Number.MAX_SAFE_INTEGER),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('', ' ', 'null', 'undefined', 'true', '0', 'NaN', 'Infinity', '1e999'),
    fc.constantFrom(...ARABIC_NUMBERS),
    fc.constantFrom(...ODD_DATES),
    text(CONTROL_TEXT),
    text(LONE_SURROGATES),
    fc.constantFrom(...TRICKY_TEXT),
    fc.constantFrom(1_000, 20_000, 200_000).map((length) => 'ن'.repeat(length / 2)),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
    fc.constantFrom(30, 200).map((depth) => nested(depth)),
    fc.dictionary(fc.constantFrom('constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'length', '0'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

/** An array nested `depth` deep, holding a string at the bottom. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Every place in a JSON value where one value can be replaced or removed, as paths. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((item, index) => (out.push([...prefix, index]), paths(item, [...prefix, index], out)));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) out.push([...prefix, key]), paths(item, [...prefix, key], out);
  return out;
}

/** A copy of `value` with the value at `path` replaced (or, with `remove`, dropped). */
function withChange(value: unknown, path: (string | number)[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...(value as unknown[])];
    if (rest.length === 0 && remove) copy.splice(head as number, 1);
    else copy[head as number] = withChange(copy[head as number], rest, replacement, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[head as string];
  else copy[head as string] = withChange(copy[head as string], rest, replacement, remove);
  return copy;
}

/** Raw bodies JSON.stringify cannot produce: prototype keys, nesting past any recursion, not JSON at all. */
function rawHostile(valid: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzCase> {
  const withKey = (key: string) =>
    fc.tuple(valid, fc.jsonValue({ maxDepth: 1 })).map(([body, value]) => {
      const text = JSON.stringify(body ?? {});
      const inner = `"${key}":${JSON.stringify(value ?? null)}`;
      const raw = text.startsWith('{') && text !== '{}' ? `{${inner},${text.slice(1)}` : `{${inner}}`;
      return { kind: 'hostile' as const, raw, label: `${key} key` };
    });
  // Numbers JSON can write but JavaScript cannot hold (1e400 parses to Infinity), or an id column cannot.
  const withNumbers = fc.tuple(valid, fc.constantFrom('1e400', '-1e400', '2147483648', '9223372036854775808', '1.0000000000000001', '-0')).map(([body, number]) => ({
    kind: 'hostile' as const,
    raw: JSON.stringify(body ?? {}).replace(/(?<=[:[,])-?\d+(\.\d+)?([eE][-+]?\d+)?(?=[,\]}])/g, number),
    label: `every number ${number}`,
  }));
  return fc.oneof(
    withNumbers,
    withKey('__proto__'),
    fc.constant({ kind: 'hostile' as const, raw: '{"__proto__":{"isAdmin":true,"polluted":1},"constructor":{"prototype":{"polluted":1}}}', label: 'prototype pollution' }),
    fc.constantFrom(2_000, 20_000, 100_000).map((depth) => ({ kind: 'hostile' as const, raw: `${'['.repeat(depth)}${']'.repeat(depth)}`, label: `arrays ${depth} deep` })),
    fc.constantFrom(2_000, 50_000).map((depth) => ({ kind: 'hostile' as const, raw: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, label: `objects ${depth} deep` })),
    fc.constantFrom('{', '{"lang":"en"', "{'lang':'en'}", 'lang=en', '\uFEFF{}', '{"a":1}garbage', '[]', '"text"', '42', 'null', 'true', '{"lang":"\\ud800"}').map((raw) => ({ kind: 'hostile' as const, raw, label: 'not an object' })),
    fc.constantFrom(250_000, 300_000).map((size) => ({ kind: 'hostile' as const, raw: JSON.stringify({ lang: 'en', pad: 'x'.repeat(size) }), label: `${size} bytes` })),
  );
}

/** The cases of one endpoint: valid 40 %, one value mutated 40 %, hostile 20 %. */
export function fuzzCases(request: unknown, pool: FuzzPool, path: string): fc.Arbitrary<FuzzCase> {
  const examples = pool.examples[path] ?? [];
  const fromSchema = validOf(request as SchemaNode, pool, null);
  // Bodies the server accepted are valid beyond the schema (the form's rules, real ids): mutating
  // one of their values tests each rule on its own instead of a body refused for ten reasons.
  const valid = examples.length > 0 ? fc.oneof(fromSchema, fc.constantFrom(...examples)) : fromSchema;
  const mutated = fc
    .tuple(
      valid,
      fc.nat(),
      hostileValue(),
      fc.boolean(),
      fc.oneof({ arbitrary: fc.constant(''), weight: 6 }, { arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra'), weight: 1 }),
    )
    .map(
    ([body, pick, replacement, remove, extraKey]): FuzzCase => {
      if (body === null || typeof body !== 'object') return { kind: 'mutated', json: replacement };
      const places = paths(body);
      // Now and then a key the schema does not have, instead of one it has.
      if (extraKey !== '' || places.length === 0) {
        const key = extraKey === '' ? 'extra' : extraKey;
        return { kind: 'mutated', json: { ...(body as object), [key]: replacement } };
      }
      const place = places[pick % places.length]!;
      return { kind: 'mutated', json: withChange(body, place, replacement, remove) };
    },
  );
  const hostileBody = fc.oneof(
    hostileValue().map((json): FuzzCase => ({ kind: 'hostile', json })),
    fc.dictionary(fc.string({ maxLength: 12 }), hostileValue(), { maxKeys: 6 }).map((json): FuzzCase => ({ kind: 'hostile', json })),
    rawHostile(valid),
  );
  return fc.oneof(
    { arbitrary: valid.map((json): FuzzCase => ({ kind: 'valid', json })), weight: 2 },
    { arbitrary: mutated, weight: 2 },
    { arbitrary: hostileBody, weight: 1 },
  );
}
