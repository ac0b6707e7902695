import type { ContactDetails } from '../../contract/travel-details.rules';
import { registeredValues } from '../storage/reload-draft';

/**
 * What the visitor typed into the contact fields of the form on screen, saved or not, handed to
 * the call-back form (RULINGS 13: "prefilled from what the visitor already typed"). Kept in
 * memory only: it lives for this page view, like the typing itself, and is never stored.
 */
let typed: ContactDetails | null = null;

const CONTACT_KEYS = ['name', 'email', 'phone_country_code', 'phone_number'] as const;

function contactOf(value: unknown): ContactDetails | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (!CONTACT_KEYS.every((key) => typeof record[key] === 'string')) return null;
  const contact = Object.fromEntries(CONTACT_KEYS.map((key) => [key, record[key]])) as ContactDetails;
  // A form with nothing typed hands nothing over: the saved details still apply.
  return contact.name.trim() || contact.email.trim() || contact.phone_number ? contact : null;
}

/** Takes the contact fields of the form on screen, if any; called just before the call-back form opens. */
export function captureTypedContact(): void {
  typed = contactOf(registeredValues());
}

/** The contact typed before the call-back form opened, or null. */
export const typedContact = (): ContactDetails | null => typed;
