import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ConsoleRole } from '../../../contract/broker-console';

/** The console's screens in the menu, and who sees each: staff the daily work, admins everything. */
export interface NavItem {
  path: string;
  label: MessageDescriptor;
  roles: readonly ConsoleRole[];
}

const EVERYONE: readonly ConsoleRole[] = ['staff', 'admin'];
const ADMINS: readonly ConsoleRole[] = ['admin'];

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/', label: msg`Today`, roles: EVERYONE },
  { path: '/call-backs', label: msg`Call-backs`, roles: EVERYONE },
  { path: '/orders', label: msg`Orders`, roles: EVERYONE },
  { path: '/cancellation-requests', label: msg`Cancellation requests`, roles: EVERYONE },
  { path: '/mail', label: msg`Mail`, roles: EVERYONE },
  { path: '/refunds', label: msg`Refunds`, roles: ADMINS },
  { path: '/coupons', label: msg`Coupons`, roles: ADMINS },
  { path: '/agents', label: msg`Agents`, roles: ADMINS },
  { path: '/audit', label: msg`Audit log`, roles: ADMINS },
  { path: '/users', label: msg`Users`, roles: ADMINS },
];

/** Whether `pathname` is within the item's screen (an order's page is within Orders). */
export const isCurrent = (item: NavItem, pathname: string) => (item.path === '/' ? pathname === '/' : pathname === item.path || pathname.startsWith(`${item.path}/`));
