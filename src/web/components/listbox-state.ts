import { useEffect, useReducer } from 'react';

/**
 * Props for a Mantine Select or MultiSelect so that it tells screen readers its list is open.
 * Mantine sets aria-expanded and aria-controls only once the list has given the select its id,
 * which a list mounted on opening (the theme's `keepMounted: false`, issue 19) does in an effect
 * after the select has rendered: the select said "collapsed" over an open list (issue 21). The
 * owner renders once more after each opening; its effect runs after the list's, so the select
 * then reads the id.
 */
export function useListboxState(): { onDropdownOpen: () => void } {
  const [openings, opened] = useReducer((count: number) => count + 1, 0);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (openings > 0) rerender();
  }, [openings]);
  return { onDropdownOpen: opened };
}
