// Typed reading of wrangler `[vars]` (strings from wrangler.toml or the dashboard, sometimes numbers in tests). Every
// capability has its own names and defaults; what they share is the rule: a missing or empty var takes its default, an
// invalid one also takes its default and is reported, because a typo in a deployment must not take a site down.

/** The Worker's `env`, read as plain values. */
export type Vars = Readonly<Record<string, unknown>>;

/** How one var is parsed: a value, or `undefined` when `raw` is invalid; `expected` says what valid means. */
export interface VarParser<T> {
  readonly parse: (raw: unknown) => T | undefined;
  readonly expected: string;
}

/** One invalid var, handed to the capability so it can log (or collect) it in its own words. */
export interface InvalidVar {
  readonly name: string;
  readonly raw: unknown;
  readonly fallback: unknown;
  readonly expected: string;
}

/** Reads one var by name with a parser and a default. */
export type VarReader = <T>(name: string, parser: VarParser<T>, fallback: T) => T;

/** A reader over `vars` that calls `onInvalid` for each var present but invalid (its default is used instead). */
export function varReader(vars: Vars, onInvalid: (invalid: InvalidVar) => void): VarReader {
  return <T>(name: string, parser: VarParser<T>, fallback: T): T => {
    const raw = vars[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parser.parse(raw);
    if (value !== undefined) return value;
    onInvalid({ name, raw, fallback, expected: parser.expected });
    return fallback;
  };
}

/** Any finite number above zero (`1.5`, `3`). */
export const positiveNumber: VarParser<number> = {
  expected: 'a positive number',
  parse: (raw) => {
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  },
};

/** A whole number written in decimal digits (or given as a number), within `min`..`max`. */
export function integerIn(min: number, max: number): VarParser<number> {
  return {
    expected: `an integer from ${min} to ${max}`,
    parse: (raw) => {
      const text = typeof raw === 'number' ? String(raw) : raw;
      if (typeof text !== 'string' || !/^\d+$/.test(text)) return undefined;
      const value = Number(text);
      return value >= min && value <= max ? value : undefined;
    },
  };
}

/** One of a fixed set of strings, compared exactly. */
export function oneOf<T extends string>(allowed: readonly T[]): VarParser<T> {
  return {
    expected: `one of ${allowed.join(', ')}`,
    parse: (raw) => (allowed.includes(raw as T) ? (raw as T) : undefined),
  };
}

/** Comma-separated items, trimmed, empty items dropped. */
export const commaList: VarParser<string[]> = {
  expected: 'a comma-separated list',
  parse: (raw) =>
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : undefined,
};
