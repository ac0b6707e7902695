/**
 * Leads known not to be paid in this page load (RULINGS 28): the ones the customer submitted or
 * resumed here, and the ones the server was asked about. A page of any other lead asks first
 * (journey-outlet.tsx); after a payment page a lead is asked about again.
 */
const openLeads = new Set<string>();

export const markLeadOpen = (uuid: string): void => void openLeads.add(uuid);

export const isLeadKnownOpen = (uuid: string): boolean => openLeads.has(uuid);

export const forgetLeadOpen = (uuid: string): void => void openLeads.delete(uuid);
