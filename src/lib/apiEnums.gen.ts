/**
 * Generated from the API's OpenAPI document (the server's route schemas) by `npm run api:types`.
 * Do not edit: change the route's schema and run the command again (`npm test` checks it).
 */

/** The 20 story languages a prompt (and a voice) can be written in, in display order. */
export const LANGUAGE_CODES = ["pt","en","es","fr","de","it","ja","ko","zh","ru","ar","hi","tr","nl","sv","no","da","fi","pl","cs"] as const;

/** The prompt categories, in display order; the first is the default. */
export const PROMPT_CATEGORIES = ["drama_psicologico","suspense","romance","acao","comedia","terror","ficcao_cientifica","fantasia"] as const;

/** The plans of the catalogue, in its order. */
export const PLAN_IDS = ["starter","basic","professional","business","enterprise"] as const;

/** How a plan is billed. */
export const BILLING_PERIODS = ["monthly","annual"] as const;
