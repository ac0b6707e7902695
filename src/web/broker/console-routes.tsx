import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { CONSOLE_PATH } from '../../contract/broker-console';
import { PageLoader } from './components/data-view';
import { RouteErrorPanel } from './shell/route-error-panel';

/**
 * The console's routes under /broker. Every screen is a lazy chunk, so the first load is the
 * shell and the screen asked for. The shell (console-shell.tsx) admits only a signed-in account
 * with its second factor set up; sign-in, setup and the second-factor step stand alone.
 */
const screen = (load: () => Promise<{ Component: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({ lazy: load });

export const CONSOLE_ROUTES: RouteObject[] = [
  {
    id: 'root',
    element: <Outlet />,
    errorElement: <RouteErrorPanel />,
    HydrateFallback: PageLoader,
    children: [
      { path: 'login', ...screen(async () => ({ Component: (await import('./screens/login/login.screen')).LoginScreen })) },
      { path: 'setup', ...screen(async () => ({ Component: (await import('./screens/setup/setup.screen')).SetupScreen })) },
      { path: 'two-factor', ...screen(async () => ({ Component: (await import('./screens/two-factor/two-factor.screen')).TwoFactorScreen })) },
      {
        path: '/',
        ...screen(async () => ({ Component: (await import('./shell/console-shell')).ConsoleShell })),
        children: [
          { index: true, ...screen(async () => ({ Component: (await import('./screens/today/today.screen')).TodayScreen })) },
          { path: 'call-backs', ...screen(async () => ({ Component: (await import('./screens/call-backs/call-backs.screen')).CallBacksScreen })) },
          { path: 'orders', ...screen(async () => ({ Component: (await import('./screens/orders/orders.screen')).OrdersScreen })) },
          { path: 'orders/:ref', ...screen(async () => ({ Component: (await import('./screens/order/order.screen')).OrderScreen })) },
          { path: 'cancellation-requests', ...screen(async () => ({ Component: (await import('./screens/cancellation-requests/cancellation-requests.screen')).CancellationRequestsScreen })) },
          { path: 'refunds', ...screen(async () => ({ Component: (await import('./screens/refunds/refunds.screen')).RefundsScreen })) },
          { path: 'coupons', ...screen(async () => ({ Component: (await import('./screens/coupons/coupons.screen')).CouponsScreen })) },
          { path: 'agents', ...screen(async () => ({ Component: (await import('./screens/agents/agents.screen')).AgentsScreen })) },
          { path: 'mail', ...screen(async () => ({ Component: (await import('./screens/mail/mail.screen')).MailScreen })) },
          { path: 'audit', ...screen(async () => ({ Component: (await import('./screens/audit/audit.screen')).AuditScreen })) },
          { path: 'users', ...screen(async () => ({ Component: (await import('./screens/users/users.screen')).UsersScreen })) },
          { path: '*', ...screen(async () => ({ Component: (await import('./shell/not-found.screen')).NotFoundScreen })) },
        ],
      },
    ],
  },
];

export const createConsoleRouter = () => createBrowserRouter(CONSOLE_ROUTES, { basename: CONSOLE_PATH });
