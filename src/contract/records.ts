// Typed views of plain objects: their keys, entries and objects made from entries, which Object's own functions type as plain strings; written once, so no module casts them.

/** The own keys of an object whose keys are exactly those of its type (a definitions table), typed as such. */
export const keysOf = <T extends object>(o: T): (keyof T & string)[] => Object.keys(o) as (keyof T & string)[];

/** The own entries of such an object, each key typed as a key of it. */
export const entriesOf = <T extends object>(o: T): [keyof T & string, T[keyof T & string]][] => Object.entries(o) as [keyof T & string, T[keyof T & string]][];

/** An object from entries whose keys are every key of K: the typed Object.fromEntries. */
export const recordOf = <K extends string, V>(entries: Iterable<readonly [K, V]>): Record<K, V> => Object.fromEntries(entries) as Record<K, V>;
