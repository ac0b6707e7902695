import type { FocusEvent } from 'react';

/**
 * A searchable select shows the chosen label in its input; selecting it on focus lets the first
 * typed letter start a new search instead of being appended to "+961" or "France".
 */
export const selectText = (event: FocusEvent<HTMLInputElement>) => event.currentTarget.select();
