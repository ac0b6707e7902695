import type { InferOutput } from 'valibot';
import type { Language } from '../../src/contract/endpoint';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { ProceedRequest, Quote, QuotedLead, compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import type { LoadFailure } from '../service-failure';

/** What compare-quotes answers (spec §7): the quotes and what heads the list. */
export type QuotesData = InferOutput<(typeof compareQuotesEndpoint)['data']>;

/** Which page runs the machine: the quote list, or the side-by-side table of compared plans. */
export type QuotesView = 'quotes' | 'offers';

export interface QuotesInput {
  lang: Language;
  /** The journey's lead; without one nothing is loaded (the journey sends the user back). */
  uuid: string | null;
  sessionId: string | null;
  /** The agent's id (agent mode, RULINGS 15), or null for a customer. */
  agentId: number | null;
  /** This page's address, which the agent shares (whatapp_template, send-email-by-page). */
  link: string | null;
  view: QuotesView;
  /**
   * The compared plans' `compare_id`s (compare_data): the table's columns in order on
   * /compare-offers, the compare selection to restore on the quote list.
   */
  compareIds: string[];
  /** Add-on ids ticked per plan, by `compare_id` (compare_data), restored once the quotes load. */
  addonsByPlan: Record<string, number[]>;
}

/**
 * Spec §3 `compare_data`: the compared plans and the add-ons ticked on every plan, keyed by
 * `compare_id` (stable across re-quotes, unlike quote ids), so the table shows what the cards
 * showed and Back or a reload keeps both. `uuid` names the lead they belong to.
 */
export interface CompareData {
  uuid: string | null;
  compareIds: string[];
  addons: Record<string, number[]>;
}

export type QuotesSort = 'price' | 'medical';

/** Most plans compared side by side (spec §4). */
export const MAX_COMPARED = 3;

/** Why the page cannot show quotes: the call failed, or the server flagged quoting as failed. */
export type QuotesFailure = LoadFailure | 'quotes_error';

/**
 * Codes the list shows above the quotes after a refused buy: the bot check did not pass, or the
 * chosen quote is gone (so the list was reloaded).
 */
export type QuotesNotice = 'bot_check_failed' | 'quote_expired';

export interface QuotesContext extends QuotesInput {
  quotes: Quote[];
  lead: QuotedLead | null;
  customer: QuotesData['customer'] | null;
  whatsappTemplate: string;
  unavailableProviders: QuotesData['unavailable_providers'];
  /** Quote id -> add-on ids the customer ticked. */
  checkedAddons: Record<number, number[]>;
  /** Quote ids chosen for comparison, in the order chosen. */
  compareSelection: number[];
  /** The last compare.toggle asked for a 4th plan and was refused. */
  compareRefused: boolean;
  sort: QuotesSort;
  /** Provider ids to show; empty shows every insurer. */
  insurerFilter: number[];
  drawerQuoteId: number | null;
  buyingQuoteId: number | null;
  botToken: string | null;
  /** This buy already sent a fresh token after a spent-token refusal: the next refusal is shown. */
  botRetried: boolean;
  notice: QuotesNotice | null;
  failure: QuotesFailure | null;
  /** A buy failed for a reason the customer cannot fix: the system error dialog opens. */
  buyFailed: boolean;
  /** The share e-mail went out; the toast shows while this is true (5 s). */
  emailSent: boolean;
  outcome: QuotesOutput | null;
}

export type QuotesEvent =
  | { type: 'addon.toggle'; quoteId: number; addonId: number }
  | { type: 'compare.toggle'; quoteId: number }
  | { type: 'compare.open' }
  /** Back from the compare table (or nothing left to compare there). */
  | { type: 'compare.back' }
  | { type: 'sort.change'; sort: QuotesSort }
  | { type: 'filter.change'; providerIds: number[] }
  | { type: 'drawer.open'; quoteId: number }
  | { type: 'drawer.close' }
  | { type: 'quote.buy'; quoteId: number }
  | { type: 'notice.dismiss' }
  | { type: 'share.email' };

export type QuotesEventType = QuotesEvent['type'];

/** How the step ended: a plan was chosen, the comparison opened, or the table closed. */
export type QuotesOutput =
  | { type: 'chosen'; quoteId: number }
  | { type: 'compared'; compareIds: string[] }
  | { type: 'closed' };

export interface LoadQuotesInput {
  uuid: string;
  lang: Language;
  link: string | null;
}

export interface BotTokenInput {
  lang: Language;
}

/** What the proceed call needs to know about the chosen plan to store it (spec §3 keys). */
export interface ChosenPlan {
  quote: Quote;
  /** The displayed total (plan + ticked add-ons), cents. */
  selectedPremium: number;
  addonIds: number[];
}

export type ProceedInput = ProceedRequest;

export interface SendEmailInput {
  uuid: string;
  lang: Language;
  agentId: number;
  link: string;
  pagename: 'compare-quotes' | 'compare-offers';
}

/** A failed call as the machine sees it (the web's ApiError has this shape). */
export interface QuotesServiceFailure {
  kind: string;
  status: number | null;
  body: ErrorEnvelope | null;
}
