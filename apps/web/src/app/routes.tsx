import type { ComponentType, ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { AppLayout } from './app-layout.tsx';
import { Guard, PublicOnly } from './guards.tsx';

/**
 * Each page is its own chunk, fetched when its route is first matched (issue 16): the first screen loads
 * only the login page, not the account, billing, waitlist, openings or admin code. `startPrefetching`
 * (app/prefetch.ts) fetches a page's chunk early, on hover or focus of a link, or when the browser is idle.
 */
const page = <Module,>(load: () => Promise<Module>, pick: (module: Module) => RouteObject['Component']) => ({
  lazy: async () => ({ Component: pick(await load()) }),
});

/**
 * A page with the calendar feature's cancellation cards on top (issue 29), composed here because features
 * do not import each other; the cards open a slot through the openings' own preview (issue 39). The chunks
 * load together.
 */
const withCancellations = <Props extends { cancellations?: ReactNode }>(
  load: () => Promise<ComponentType<Props>>,
) => ({
  lazy: async () => {
    const [Page, { CancellationCards }, { OpeningPreviewStep }] = await Promise.all([
      load(),
      import('../features/calendar/components/cancellation-cards.tsx'),
      import('../features/openings/components/opening-preview.tsx'),
    ]);
    const cancellations = <CancellationCards PreviewStep={OpeningPreviewStep} />;
    return { element: <Page {...({ cancellations } as Props)} /> };
  },
});

/** Every route of SPEC §2 built so far, with its guard. Shared by the browser router and the tests. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    // Shown while the first page's chunk arrives.
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        element: <PublicOnly redirectTo="/" />,
        children: [
          {
            path: '/login',
            ...page(
              () => import('../features/auth/pages/login-page.tsx'),
              (m) => m.LoginPage,
            ),
          },
          {
            path: '/register',
            ...page(
              () => import('../features/auth/pages/register-page.tsx'),
              (m) => m.RegisterPage,
            ),
          },
          {
            path: '/forgot-password',
            ...page(
              () => import('../features/auth/pages/forgot-password-page.tsx'),
              (m) => m.ForgotPasswordPage,
            ),
          },
          {
            path: '/post-login-onboarding',
            ...page(
              () => import('../features/auth/pages/post-login-onboarding-page.tsx'),
              (m) => m.PostLoginOnboardingPage,
            ),
          },
        ],
      },
      {
        element: <PublicOnly redirectTo="/account" />,
        children: [
          {
            // The product page for a visitor (issue 27); a signed-in owner still goes on to /account.
            path: '/',
            ...page(
              () => import('../features/landing/pages/landing-page.tsx'),
              (m) => m.LandingPage,
            ),
          },
          {
            path: '/reset-password',
            ...page(
              () => import('../features/auth/pages/reset-password-page.tsx'),
              (m) => m.ResetPasswordPage,
            ),
          },
          {
            path: '/reset-password/:resettoken',
            ...page(
              () => import('../features/auth/pages/reset-password-page.tsx'),
              (m) => m.ResetPasswordPage,
            ),
          },
        ],
      },
      {
        element: <Guard level="login" />,
        children: [
          {
            path: '/verify-account',
            ...page(
              () => import('../features/auth/pages/verify-account-page.tsx'),
              (m) => m.VerifyAccountPage,
            ),
          },
        ],
      },
      {
        element: <Guard level="verified" />,
        children: [
          {
            path: '/congratulations',
            ...page(
              () => import('../features/onboarding/pages/congratulations-page.tsx'),
              (m) => m.CongratulationsPage,
            ),
          },
          {
            path: '/congratulations/business-details',
            ...page(
              () => import('../features/onboarding/pages/business-details-page.tsx'),
              (m) => m.BusinessDetailsPage,
            ),
          },
        ],
      },
      {
        element: <Guard level="full" />,
        children: [
          {
            path: '/account',
            // With the billing feature's Plan and Billing tabs; Stripe's card form is a chunk of its own,
            // fetched when a card form opens.
            ...page(
              () => import('./account-route.tsx'),
              (m) => m.AccountRoute,
            ),
          },
          {
            path: '/subscription/success',
            ...page(
              () => import('../features/billing/pages/subscription-success-page.tsx'),
              (m) => m.SubscriptionSuccessPage,
            ),
          },
          {
            path: '/subscription/cancel',
            ...page(
              () => import('../features/billing/pages/subscription-cancel-page.tsx'),
              (m) => m.SubscriptionCancelPage,
            ),
          },
          {
            path: '/toast-demo',
            ...page(
              () => import('../features/toast-demo/pages/toast-demo-page.tsx'),
              (m) => m.ToastDemoPage,
            ),
          },
          {
            path: '/waitlist',
            ...page(
              () => import('../features/waitlist/pages/waitlist-page.tsx'),
              (m) => m.WaitlistPage,
            ),
          },
          {
            path: '/waitlist/:id',
            ...page(
              () => import('../features/waitlist/pages/customer-page.tsx'),
              (m) => m.CustomerPage,
            ),
          },
          {
            path: '/openings',
            ...withCancellations(
              async () => (await import('../features/openings/pages/openings-page.tsx')).OpeningsPage,
            ),
          },
          {
            path: '/openings/:id',
            ...page(
              () => import('../features/openings/pages/opening-page.tsx'),
              (m) => m.OpeningPage,
            ),
          },
          {
            // Services and staff (issue 26); the offer rules are in Settings (issue 39).
            path: '/services',
            ...page(
              () => import('../features/services/pages/services-page.tsx'),
              (m) => m.ServicesPage,
            ),
          },
          {
            // The inbox (issue 15): the list, and one conversation beside it or on its own on a phone.
            path: '/inbox',
            ...withCancellations(
              async () => (await import('../features/waitlist/pages/inbox-page.tsx')).InboxPage,
            ),
          },
          {
            path: '/inbox/:id',
            ...withCancellations(
              async () => (await import('../features/waitlist/pages/inbox-page.tsx')).InboxPage,
            ),
          },
          {
            // The owner's day (issue 29): the connected calendar's events beside the openings.
            path: '/day',
            ...page(
              () => import('../features/calendar/pages/day-page.tsx'),
              (m) => m.DayPage,
            ),
          },
          {
            // Settings (issue 39): one place for what an owner sets that SPEC §2's account page does not hold.
            path: '/settings',
            ...page(
              () => import('../features/settings/pages/settings-page.tsx'),
              (m) => m.SettingsPage,
            ),
          },
          {
            path: '/settings/business',
            ...page(
              () => import('../features/settings/pages/business-settings-page.tsx'),
              (m) => m.BusinessSettingsPage,
            ),
          },
          {
            path: '/settings/text-number',
            ...page(
              () => import('./settings-routes.tsx'),
              (m) => m.TextNumberSettingsRoute,
            ),
          },
          {
            path: '/settings/offer-rules',
            ...page(
              () => import('../features/settings/pages/offer-rules-page.tsx'),
              (m) => m.OfferRulesPage,
            ),
          },
          {
            path: '/settings/calendar',
            ...page(
              () => import('./settings-routes.tsx'),
              (m) => m.CalendarSettingsRoute,
            ),
          },
          {
            // The earnings dashboard, its SVG chart included, is its own chunk.
            path: '/dashboard',
            ...page(
              () => import('../features/dashboard/pages/dashboard-page.tsx'),
              (m) => m.DashboardPage,
            ),
          },
        ],
      },
      {
        element: <Guard level="admin" />,
        children: [
          {
            path: '/admin',
            ...page(
              () => import('../features/admin/pages/admin-page.tsx'),
              (m) => m.AdminPage,
            ),
          },
        ],
      },
      {
        // The public join page and its poster (issue 15): anyone, signed in or not; no account code.
        path: '/join/:slug',
        ...page(
          () => import('../features/join/pages/join-page.tsx'),
          (m) => m.JoinPage,
        ),
      },
      {
        path: '/join/:slug/poster',
        ...page(
          () => import('../features/join/pages/poster-page.tsx'),
          (m) => m.PosterPage,
        ),
      },
      {
        path: '*',
        ...page(
          () => import('./not-found-page.tsx'),
          (m) => m.NotFoundPage,
        ),
      },
    ],
  },
];
