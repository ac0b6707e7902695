import { useEffect, type RefObject } from 'react';

/**
 * Keeps a Mantine combobox field's aria-activedescendant naming the option Enter would choose.
 * Mantine sets it only when an arrow key moves the highlight, and keeps that id after the
 * option leaves the list (chosen and hidden, or filtered out by typing), so a screen reader
 * was pointed at an element that no longer exists (issue 21, WCAG 4.1.2). While the field has
 * the focus, each change to the page or to the attribute points it at the highlighted option
 * of the list the field controls, or removes it when none is.
 *
 * React writes the attribute only when Mantine's value for it changes, so a correction stays
 * until the arrow keys move the highlight again, and that value names a live option.
 */
export function useTruthfulActiveOption(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    let field: HTMLInputElement | null = null;
    const correct = () => {
      if (!field) return;
      const named = field.getAttribute('aria-activedescendant');
      // The list the field controls; Mantine may name it a render after the option it highlights.
      const list = document.getElementById(field.getAttribute('aria-controls') ?? '') ?? (named ? document.getElementById(named)?.closest('[role="listbox"]') : null);
      const highlighted = list?.querySelector<HTMLElement>('[data-combobox-selected]')?.id ?? null;
      if (highlighted === named) return;
      if (highlighted) field.setAttribute('aria-activedescendant', highlighted);
      else field.removeAttribute('aria-activedescendant');
    };
    // The list sits in a portal, so the whole page is watched, and only while the field has the
    // focus. The field is found as it takes the focus: it comes and goes with the trip's direction.
    const observer = new MutationObserver(correct);
    const focused = (event: FocusEvent) => {
      if (event.target !== input.current) return;
      field = input.current;
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-activedescendant', 'aria-controls', 'data-combobox-selected'] });
      correct();
    };
    const left = (event: FocusEvent) => {
      if (event.target !== field) return;
      observer.disconnect();
      field = null;
    };
    document.addEventListener('focusin', focused);
    document.addEventListener('focusout', left);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', focused);
      document.removeEventListener('focusout', left);
    };
  }, [input]);
}
