/**
 * Where the rates screen keeps the property it showed last (localStorage): the store opens it again, and a new tab's
 * first screen asks for its data before the screen's code has loaded (shell/firstScreen.ts).
 */
export const RATES_PROPERTY_KEY = 'innkeeper.rates.property';
