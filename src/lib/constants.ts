/**
 * Business constants and limits of spec section 9. The server keeps its own copy of the rules it
 * enforces (password length, plan catalogue); these are what the web app shows and checks first.
 */
import { BILLING_PERIODS, PLAN_IDS, PROMPT_CATEGORIES } from './apiEnums.gen';

/** Minimum length of a password (sign-up, password change, password reset). */
export const PASSWORD_MIN_LENGTH = 6;

/** Default paging of every list call. */
export const DEFAULT_PAGE = { skip: 0, limit: 100 } as const;

/** Sign-up prices, in US dollars. The annual price is twelve months less the discount, rounded. */
export const MONTHLY_PRICE_USD = 29;
export const ANNUAL_DISCOUNT = 0.2;
export const ANNUAL_PRICE_USD = Math.round(MONTHLY_PRICE_USD * 12 * (1 - ANNUAL_DISCOUNT));
export const SIGNUP_CURRENCY = 'USD';

/** The billing periods, plans and prompt categories are the server's (apiEnums.gen.ts, from the API's document). */
export { BILLING_PERIODS, PLAN_IDS, PROMPT_CATEGORIES };
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** The plan catalogue (prices in BRL per month, every plan with unlimited processes). */
export const PLAN_CURRENCY = 'BRL';
export type PlanId = (typeof PLAN_IDS)[number];

/** What a plan card lists besides its channels and unlimited processes (spec §3, Plan features). */
export const PLAN_FEATURES = [
  'automaticGeneration',
  'emailSupport',
  'prioritySupport',
  'dedicatedSupport',
  'basicAnalytics',
  'advancedAnalytics',
  'basicScheduling',
  'advancedScheduling',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export interface Plan {
  id: PlanId;
  name: string;
  channels: number;
  /** Per month, in BRL. */
  price: number;
  currency: typeof PLAN_CURRENCY;
  popular: boolean;
  features: readonly PlanFeature[];
}

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    channels: 1,
    price: 49.9,
    currency: PLAN_CURRENCY,
    popular: false,
    features: ['automaticGeneration', 'emailSupport', 'basicAnalytics', 'basicScheduling'],
  },
  {
    id: 'basic',
    name: 'Basic',
    channels: 2,
    price: 74.9,
    currency: PLAN_CURRENCY,
    popular: false,
    features: ['automaticGeneration', 'emailSupport', 'basicAnalytics', 'advancedScheduling'],
  },
  {
    id: 'professional',
    name: 'Professional',
    channels: 5,
    price: 89.9,
    currency: PLAN_CURRENCY,
    popular: true,
    features: ['automaticGeneration', 'prioritySupport', 'advancedAnalytics', 'advancedScheduling'],
  },
  {
    id: 'business',
    name: 'Business',
    channels: 10,
    price: 119.9,
    currency: PLAN_CURRENCY,
    popular: false,
    features: ['automaticGeneration', 'prioritySupport', 'advancedAnalytics', 'advancedScheduling'],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    channels: 20,
    price: 160.9,
    currency: PLAN_CURRENCY,
    popular: false,
    features: ['automaticGeneration', 'dedicatedSupport', 'advancedAnalytics', 'advancedScheduling'],
  },
];

/**
 * Annual billing (docs/decisions.md): twelve months less the sign-up's 20 percent, to the cent,
 * billed once a year. Starter: 49.90 x 12 x 0.8 = R$ 479,04 a year (R$ 39,92 a month).
 */
export const ANNUAL_PLAN_DISCOUNT = ANNUAL_DISCOUNT;

export function annualPlanPrice(plan: Pick<Plan, 'price'>): number {
  return Math.round(plan.price * 12 * (1 - ANNUAL_PLAN_DISCOUNT) * 100) / 100;
}

/** What a plan costs per billing period: the monthly price, or the annual one. */
export function planPrice(plan: Pick<Plan, 'price'>, billing: BillingPeriod): number {
  return billing === 'annual' ? annualPlanPrice(plan) : plan.price;
}

export function planById(id: string | undefined): Plan {
  return PLANS.find((plan) => plan.id === id) ?? PLANS.find((plan) => plan.id === DEFAULT_PLAN)!;
}

export const DEFAULT_PLAN: PlanId = 'starter';

/** Processes run every few days; the first execution is that many days after creation. */
export const PROCESS_INTERVAL_DAYS = 3;
export const DEFAULT_PUBLICATION_TIME = '09:00';
export const DEFAULT_PROCESS_LANGUAGE = 'pt';
export const EXECUTION_STEP_COUNT = 7;
export const SECONDS_PER_REMAINING_STEP = 2;

/** Dashboard list sizes. */
export const DASHBOARD_RECENT_PROCESSES = 3;
export const DASHBOARD_RECENT_PUBLICATIONS = 5;

/** History period filter, in days. */
export const HISTORY_PERIODS_DAYS = [7, 30, 90] as const;

/** Prompts: the 8 categories in display order (the first is the default), the default languages. */
export type PromptCategory = (typeof PROMPT_CATEGORIES)[number];
export const DEFAULT_PROMPT_CATEGORY: PromptCategory = 'drama_psicologico';
export const DEFAULT_PROMPT_LANGUAGES = ['pt', 'en'] as const;
export const MIN_PROMPT_LANGUAGES = 1;

/** The six texts of each prompt language (docs/api-catalogue.md), in the editor's order. */
export const PROMPT_TEXT_FIELDS = [
  'title',
  'premise',
  'narrative_prompt',
  'chapter_1',
  'next_chapters',
  'final_chapter',
] as const;
export type PromptTextField = (typeof PROMPT_TEXT_FIELDS)[number];

/** The placeholders the video engine fills in those texts. */
export const PROMPT_PLACEHOLDERS = [
  '{title}',
  '{premise}',
  '{summary}',
  '{chapter_number}',
  '{total_chapters}',
  '{language}',
  '{previous_titles}',
] as const;

export function isPromptCategory(value: unknown): value is PromptCategory {
  return typeof value === 'string' && (PROMPT_CATEGORIES as readonly string[]).includes(value);
}

/** Voices: who speaks them, and the genders a voice may declare. */
export const VOICE_PROVIDERS = ['openai', 'elevenlabs', 'espeak'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
export const DEFAULT_VOICE_PROVIDER: VoiceProvider = 'espeak';
/** Brand names, the same in every language. */
export const VOICE_PROVIDER_NAMES: Record<VoiceProvider, string> = {
  openai: 'OpenAI',
  elevenlabs: 'ElevenLabs',
  espeak: 'eSpeak NG',
};
export const VOICE_GENDERS = ['female', 'male', 'neutral'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

/** Background music: the moods a track is tagged with, the largest upload and the formats accepted. */
export const MUSIC_MOODS = ['calm', 'dramatic', 'mysterious', 'uplifting', 'dark', 'epic', 'romantic', 'playful'] as const;
export type MusicMood = (typeof MUSIC_MOODS)[number];
export const MUSIC_MAX_BYTES = 20 * 1024 * 1024;
/** What the file picker offers; the server reads the file's bytes to tell what it is. */
export const MUSIC_FILE_ACCEPT = '.mp3,.wav,.ogg,.oga,audio/mpeg,audio/wav,audio/x-wav,audio/ogg';
export const MUSIC_FILE_EXTENSIONS = ['mp3', 'wav', 'ogg', 'oga'] as const;

/** What a process makes: a landscape video, or a vertical YouTube Short of at most three minutes. */
export const PROCESS_FORMATS = ['video', 'short'] as const;
export type ProcessFormat = (typeof PROCESS_FORMATS)[number];

/** Channels. */
export const DEFAULT_MIN_VIEWS = 0;

/** How often a list showing a run under way (queued or running) is fetched again, while the tab is visible. */
export const RUNS_POLL_MS = 5000;
