import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ConsoleApiError } from '../services/console-api';
import { FIELD_ERROR_LABELS, labelOf } from '../i18n/console-labels';

/** A failure as the console shows it: a translated heading and, where there is one, the server's own sentence. */
export interface ErrorText {
  heading: string;
  detail: string | null;
}

/**
 * The heading for a failed request, by its code or status: field codes (a 422 invalid_request)
 * list each field; a refused change (422, code `refused`) shows the service's own sentence
 * (data.detail, English, as the CLI prints it) under a translated heading.
 */
export function describeError(i18n: I18n, error: unknown): ErrorText {
  if (!(error instanceof ConsoleApiError)) return { heading: i18n._(msg`The server could not be reached. Check the connection and try again.`), detail: null };
  const fields = Object.entries(error.errors).map(([field, code]) => `${field}: ${labelOf(i18n, FIELD_ERROR_LABELS, code)}`);
  if (fields.length) return { heading: i18n._(msg`Some fields need attention.`), detail: fields.join(' · ') };
  switch (error.code) {
    case 'refused':
      return { heading: i18n._(msg`The change was refused.`), detail: error.detail ?? null };
    case 'setup_invalid':
      return { heading: i18n._(msg`This setup link is used or out of date. Ask an admin for a new one.`), detail: null };
    case 'csrf':
      return { heading: i18n._(msg`This change did not come from the console page. Reload the page and try again.`), detail: null };
    case 'two_factor_required':
      return { heading: i18n._(msg`Set up your authenticator app first.`), detail: null };
  }
  const detail = error.detail ?? (error.message || null);
  switch (error.status) {
    case 401:
      return { heading: i18n._(msg`Your session has ended. Sign in again.`), detail: null };
    case 403:
      return { heading: i18n._(msg`You do not have access to this page`), detail: null };
    case 404:
      return { heading: i18n._(msg`Not found.`), detail: null };
    case 429:
      return { heading: i18n._(msg`Too many attempts, try again in a few minutes`), detail: null };
    case 409:
    case 422:
      return { heading: i18n._(msg`The change was refused.`), detail };
    default:
      return { heading: error.status >= 500 ? i18n._(msg`Something went wrong on the server. Try again in a minute.`) : i18n._(msg`The request failed.`), detail };
  }
}

/** The translated error of each field the server named (field → code), for the form's fields. */
export function fieldErrorsOf(i18n: I18n, error: unknown): Record<string, string> {
  if (!(error instanceof ConsoleApiError)) return {};
  return Object.fromEntries(Object.entries(error.errors).map(([field, code]) => [field, labelOf(i18n, FIELD_ERROR_LABELS, code)]));
}
