import type { z } from 'zod';

/**
 * One feature's slice of the contract: the argument schema of each of its methods (`<feature>.<verb>`), the names of
 * the events it sends, and — as types only — what each method answers and what each event carries. `contract.ts`
 * puts the slices together from one list.
 */
export interface ContractSlice<Methods extends Record<string, z.ZodType>, Results, Events> {
  readonly methods: Methods;
  readonly events: readonly (keyof Events & string)[];
  /** Types only (never set). */
  readonly types?: { results: Results; events: Events };
}

/** The names of `Events` that `Names` leaves out; a slice whose list leaves one out does not compile. */
type Missing<Events, Names extends readonly string[]> = Exclude<keyof Events, Names[number]>;

/**
 * Declares a slice: `defineSlice<RatesResults, RatesEvents>()(ratesMethods, ['rates.changed'])`. Its events list
 * must name every event of `Events`; `contract.ts` checks that every method has a result and every result a method.
 */
export function defineSlice<Results, Events = Record<never, never>>() {
  return <Methods extends Record<string, z.ZodType>, const Names extends readonly (keyof Events & string)[]>(
    methods: Methods,
    events: Names & ([Missing<Events, Names>] extends [never] ? unknown : { missing: Missing<Events, Names> }),
  ): ContractSlice<Methods, Results, Events> => ({ methods, events });
}
