// The inbox's limits the page needs before any schema: no zod here, so the first screen's code (the inbox's store,
// in the entry chunk) does not load the validation library with it (bench/RESULTS.md, "floor").

/** The longest search the lists look for; the search field takes no more (a longer paste is cut there, and said). */
export const SEARCH_MAX_LENGTH = 200;
