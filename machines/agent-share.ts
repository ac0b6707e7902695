/**
 * Agent mode's e-mail share (RULINGS 15), the same on every page that has it: how long the
 * "sent" toast stays (spec §9: 5 seconds). Kept apart so a page's chunk does not pull in
 * another step's machine for one number.
 */
export const EMAIL_TOAST_MS = 5000;
