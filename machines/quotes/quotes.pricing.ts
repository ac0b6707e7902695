import type { Quote } from '../../src/contract/quote.endpoints';
import { MAX_COMPARED, type ChosenPlan, type CompareData, type ProceedInput, type QuotesContext, type QuotesData, type QuotesServiceFailure, type QuotesSort } from './quotes.types';

/**
 * Pure figures of the quote list, shared by the machine (the proceed payload) and the selectors
 * (what the cards show), so what is shown and what is sent are one computation.
 */

/** Add-on ids ticked on a quote, in the quote's own add-on order. */
export function checkedAddonIds(context: Pick<QuotesContext, 'checkedAddons'>, quote: Quote): number[] {
  // Stryker disable next-line ArrayDeclaration: only the quote's own add-on ids are kept (the filter below), so a quote with nothing ticked gets none whatever this list holds
  const checked = context.checkedAddons[quote.id] ?? [];
  return quote.addon.filter((addon) => checked.includes(addon.id)).map((addon) => addon.id);
}

/** Spec §4: ticking an add-on raises the premium by its value; the total is plan + ticked add-ons (cents). */
export function displayedTotal(context: Pick<QuotesContext, 'checkedAddons'>, quote: Quote): number {
  const checked = checkedAddonIds(context, quote);
  return quote.addon.reduce((total, addon) => (checked.includes(addon.id) ? total + addon.value : total), quote.premium);
}

/** Price low to high (default), or medical limit high to low with price breaking ties. */
export function sortQuotes(quotes: readonly Quote[], sort: QuotesSort): Quote[] {
  return [...quotes].sort((a, b) =>
    sort === 'medical' ? b.medical_limit_usd - a.medical_limit_usd || a.premium - b.premium : a.premium - b.premium,
  );
}

/** Toggles `id` in a list, keeping the order of the others. */
export function toggled<T>(list: readonly T[], id: T): T[] {
  return list.includes(id) ? list.filter((item) => item !== id) : [...list, id];
}

function failureOf(error: unknown): QuotesServiceFailure | null {
  if (typeof error !== 'object' || error === null || !('kind' in error)) return null;
  return error as QuotesServiceFailure;
}

/** The server refused the bot-check token (missing, wrong or already spent). */
export function isBotCheckRefused(error: unknown): boolean {
  const failure = failureOf(error);
  return Boolean(failure?.body?.data.errors && 'bot_token' in failure.body.data.errors);
}

/**
 * The server refused the token as wrong or already spent (403 bot_check_failed), not as
 * malformed or uncheckable. A token whose first answer was lost (the server crashed, or the
 * browser resent the request on a fresh connection) is refused this way although the customer
 * did nothing wrong, so the step tries once more with a fresh token before saying anything.
 */
export function isBotTokenSpent(error: unknown): boolean {
  return failureOf(error)?.body?.data.errors?.bot_token === 'bot_check_failed';
}

/**
 * The chosen quote is no longer the lead's (re-quoted elsewhere, or expired): 409, or 404/422
 * naming policy_id. The list is reloaded so the customer picks from fresh prices.
 */
export function isQuoteExpired(error: unknown): boolean {
  const failure = failureOf(error);
  if (!failure) return false;
  if (failure.status === 409) return true;
  const errors = failure.body?.data.errors ?? {};
  return errors.policy_id !== undefined || Object.values(errors).includes('quote_expired');
}

export const quoteById = (context: QuotesContext, id: number | null): Quote | undefined => context.quotes.find((quote) => quote.id === id);

export function chosenPlan(context: QuotesContext): ChosenPlan {
  const quote = quoteById(context, context.buyingQuoteId)!;
  return { quote, selectedPremium: displayedTotal(context, quote), addonIds: checkedAddonIds(context, quote) };
}

/** spec §7 proceed-review payload, with the contract's bot token and add-ons. */
export function proceedPayload(context: QuotesContext): ProceedInput {
  const { quote, selectedPremium, addonIds } = chosenPlan(context);
  return {
    uuid: context.uuid!,
    policy_id: quote.id,
    addons: addonIds,
    selected_premium: selectedPremium,
    quote,
    agent_id: context.agentId ?? 0,
    session_id: context.sessionId,
    // Stryker disable next-line StringLiteral: proceed runs only after verifying stored the token, so it is never null here
    bot_token: context.botToken ?? '',
    lang: context.lang,
  };
}

/**
 * The compare selection and ticked add-ons by `compare_id` (what compare_data stores): from the
 * loaded quotes once there are some, else what the page was opened with.
 */
export function compareDataOf(context: QuotesContext): CompareData {
  if (context.quotes.length === 0) return { uuid: context.uuid, compareIds: context.compareIds, addons: context.addonsByPlan };
  const addons: Record<string, number[]> = {};
  for (const quote of context.quotes) {
    const ids = checkedAddonIds(context, quote);
    if (ids.length > 0) addons[quote.compare_id] = ids;
  }
  // Stryker disable next-line MethodExpression,OptionalChaining: every id in compareSelection is a listed quote's (a tick is refused for any other, and a load rebuilds the selection from the quotes), so none is missing
  const compareIds = context.compareSelection.map((id) => quoteById(context, id)?.compare_id).filter((id): id is string => id !== undefined);
  return { uuid: context.uuid, compareIds, addons };
}

/**
 * Fresh quotes keep the customer's choices: a reload prices the plans again under new quote
 * ids, so the selection and the ticks are carried by `compare_id`; an add-on that is gone or
 * now disabled is dropped.
 */
export function restoredChoices(quotes: readonly Quote[], remembered: Pick<CompareData, 'compareIds' | 'addons'>) {
  const byCompareId = new Map(quotes.map((quote) => [quote.compare_id, quote]));
  const compareSelection = remembered.compareIds
    .map((compareId) => byCompareId.get(compareId)?.id)
    .filter((id): id is number => id !== undefined)
    .slice(0, MAX_COMPARED);
  const checkedAddons: Record<number, number[]> = {};
  for (const quote of quotes) {
    // Stryker disable next-line ArrayDeclaration: only ids of the quote's add-ons are kept (the filter below), so a plan with no remembered add-ons gets none whatever this list holds
    const wanted = remembered.addons[quote.compare_id] ?? [];
    const ids = quote.addon.filter((addon) => wanted.includes(addon.id) && !addon.disabled_addon).map((addon) => addon.id);
    if (ids.length > 0) checkedAddons[quote.id] = ids;
  }
  return { compareSelection, checkedAddons };
}

export const loaded = (data: QuotesData, context: QuotesContext) => ({
  quotes: data.quotes,
  lead: data.lead,
  customer: data.customer,
  whatsappTemplate: data.whatapp_template,
  unavailableProviders: data.unavailable_providers,
  ...restoredChoices(data.quotes, compareDataOf(context)),
  compareRefused: false,
  drawerQuoteId: null,
});
