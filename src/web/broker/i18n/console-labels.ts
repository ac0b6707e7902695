import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The console's words for the codes the API answers with (statuses, reasons, roles, stages): the
 * server sends codes, the console shows them translated. A code the console does not know yet is
 * shown as it came, never hidden.
 */

export const CALL_BACK_STATUS_LABELS: Record<string, MessageDescriptor> = {
  new: msg`New`,
  contacted: msg`Contacted`,
  quoted: msg`Quoted`,
  closed: msg`Closed`,
};

/** Why the customer asked to be called (the call-back's reason). */
export const CALL_BACK_REASON_LABELS: Record<string, MessageDescriptor> = {
  no_online_quote: msg`No online quote for this trip`,
  no_quotes_found: msg`No plan matched`,
  header: msg`Asked from the page header`,
  customer_request: msg`Asked to be called`,
};

export const ORDER_STATUS_LABELS: Record<string, MessageDescriptor> = {
  pending: msg`Pending`,
  paid: msg`Paid`,
  failed: msg`Failed`,
  void: msg`Void`,
  refund: msg`Refund due`,
  refunded: msg`Refunded`,
};

/** Why an order is void, or why its payment must go back. */
export const ORDER_REASON_LABELS: Record<string, MessageDescriptor> = {
  trip_changed: msg`Trip changed`,
  plan_changed: msg`Plan changed`,
  traveller_changed: msg`Traveller changed`,
  coupon_withdrawn: msg`Coupon withdrawn`,
  expired: msg`Expired`,
  legacy: msg`Placed before contracts`,
  paid_twice: msg`Paid twice`,
  order_void: msg`Paid for a void order`,
  coupon_used_up: msg`Coupon used up`,
  charged_again: msg`Charged again`,
  policy_cancelled: msg`Policy cancelled`,
};

export const REFUND_STATUS_LABELS: Record<string, MessageDescriptor> = {
  due: msg`Due`,
  requested: msg`Requested`,
  refunded: msg`Refunded`,
  refused: msg`Refused`,
};

export const MAIL_STATUS_LABELS: Record<string, MessageDescriptor> = {
  pending: msg`Pending`,
  sent: msg`Sent`,
  failed: msg`Failed`,
};

export const MAIL_KIND_LABELS: Record<string, MessageDescriptor> = {
  policy: msg`Policy certificate`,
  refund: msg`Refund`,
  cancellation: msg`Cancellation`,
  'aps-feedback': msg`Gateway notice`,
  'aps-refund': msg`Gateway refund`,
};

export const CANCEL_REASON_LABELS: Record<string, MessageDescriptor> = {
  visa_refused: msg`Visa refused`,
  trip_cancelled: msg`Trip cancelled`,
  other: msg`Other`,
};

/** Where a customer's request to cancel a policy stands. */
export const CANCELLATION_REQUEST_STATUS_LABELS: Record<string, MessageDescriptor> = {
  open: msg`Open`,
  done: msg`Policy cancelled`,
  declined: msg`Declined`,
};

export const ROLE_LABELS: Record<string, MessageDescriptor> = {
  staff: msg`Staff`,
  admin: msg`Admin`,
};

export const FUNNEL_STAGE_LABELS: Record<string, MessageDescriptor> = {
  leads: msg`Leads`,
  quotes: msg`Quotes`,
  plans_chosen: msg`Plans chosen`,
  checkouts: msg`Checkouts`,
  paid: msg`Paid`,
};

/** What a field's error code means, under the field. */
export const FIELD_ERROR_LABELS: Record<string, MessageDescriptor> = {
  required: msg`This field is required.`,
  too_short: msg`This is too short.`,
  too_long: msg`This is too long.`,
  invalid_value: msg`This value is not accepted.`,
  invalid_type: msg`This value is not accepted.`,
  out_of_range: msg`This value is out of range.`,
  invalid_characters: msg`This contains characters that are not allowed.`,
  not_found: msg`Not found.`,
};

/** A code's translated label, or the code itself when the console has no label for it. */
export function labelOf(i18n: I18n, labels: Record<string, MessageDescriptor>, code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return '—';
  const label = Object.hasOwn(labels, code) ? labels[code] : undefined;
  if (label) return i18n._(label);
  if (labels === MAIL_KIND_LABELS && code.startsWith('share-')) return i18n._(msg`Shared quote (${code.slice('share-'.length)})`);
  return code;
}
