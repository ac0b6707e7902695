/**
 * The props that name a plan's control by its own words, then the plan's name: the seven cards'
 * buttons read "Buy now Schengen Essential", "Buy now Europe Flex"… rather than seven "Buy now"
 * (WCAG 2.4.6, 4.1.2; issue 21). The name starts with what the control shows, so a voice command
 * saying the visible words still finds it (WCAG 2.5.3), and it comes from text already on the
 * page, so it is in the page's language with nothing more to translate. `planNameId` is the id
 * of the element that shows the plan's name (the card's heading, the table's column head).
 */
export function namedByPlan(id: string, planNameId: string): { id: string; 'aria-labelledby': string } {
  return { id, 'aria-labelledby': `${id} ${planNameId}` };
}
