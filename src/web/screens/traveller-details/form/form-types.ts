/** Registers a field's focusable element under its error key, for focus on the first error. */
export type FieldRefs = (field: string) => (element: HTMLElement | null) => void;
