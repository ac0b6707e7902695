import { toWesternDigits } from '../../../../contract/digits';

/** The code as typed, with Arabic-keyboard digits made 0–9 and spaces (and other separators) dropped. */
export const normalisedCode = (typed: string) => toWesternDigits(typed).replace(/[\s\u00a0\u200e\u200f-]/g, '');

/** Whether the normalised code is the six digits an authenticator app shows. */
export const isSixDigits = (code: string) => /^\d{6}$/.test(code);
