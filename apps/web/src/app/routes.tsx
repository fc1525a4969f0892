import { Navigate, type RouteObject } from 'react-router';
import { AccountPage } from '../features/account/pages/account-page.tsx';
import { AdminPage } from '../features/admin/pages/admin-page.tsx';
import { ForgotPasswordPage } from '../features/auth/pages/forgot-password-page.tsx';
import { LoginPage } from '../features/auth/pages/login-page.tsx';
import { PostLoginOnboardingPage } from '../features/auth/pages/post-login-onboarding-page.tsx';
import { RegisterPage } from '../features/auth/pages/register-page.tsx';
import { ResetPasswordPage } from '../features/auth/pages/reset-password-page.tsx';
import { VerifyAccountPage } from '../features/auth/pages/verify-account-page.tsx';
import { BillingTab } from '../features/billing/components/billing-tab.tsx';
import { PlanTab } from '../features/billing/components/plan-tab.tsx';
import { SubscriptionCancelPage } from '../features/billing/pages/subscription-cancel-page.tsx';
import { SubscriptionSuccessPage } from '../features/billing/pages/subscription-success-page.tsx';
import { GetStartedChecklist } from '../features/onboarding/components/get-started-checklist.tsx';
import { BusinessDetailsPage } from '../features/onboarding/pages/business-details-page.tsx';
import { CongratulationsPage } from '../features/onboarding/pages/congratulations-page.tsx';
import { OpeningPage } from '../features/openings/pages/opening-page.tsx';
import { OpeningsPage } from '../features/openings/pages/openings-page.tsx';
import { ToastDemoPage } from '../features/toast-demo/pages/toast-demo-page.tsx';
import { CustomerPage } from '../features/waitlist/pages/customer-page.tsx';
import { WaitlistPage } from '../features/waitlist/pages/waitlist-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { Guard, PublicOnly } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Every route of SPEC §2 built so far, with its guard. Shared by the browser router and the tests. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        element: <PublicOnly redirectTo="/" />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/post-login-onboarding', element: <PostLoginOnboardingPage /> },
        ],
      },
      {
        element: <PublicOnly redirectTo="/account" />,
        children: [
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '/reset-password/:resettoken', element: <ResetPasswordPage /> },
        ],
      },
      {
        element: <Guard level="login" />,
        children: [{ path: '/verify-account', element: <VerifyAccountPage /> }],
      },
      {
        element: <Guard level="verified" />,
        children: [
          { path: '/congratulations', element: <CongratulationsPage /> },
          { path: '/congratulations/business-details', element: <BusinessDetailsPage /> },
        ],
      },
      {
        element: <Guard level="full" />,
        children: [
          { path: '/', element: <Navigate to="/account" replace /> },
          {
            path: '/account',
            element: (
              <AccountPage
                planPanel={<PlanTab />}
                billingPanel={<BillingTab />}
                checklist={<GetStartedChecklist />}
              />
            ),
          },
          { path: '/subscription/success', element: <SubscriptionSuccessPage /> },
          { path: '/subscription/cancel', element: <SubscriptionCancelPage /> },
          { path: '/toast-demo', element: <ToastDemoPage /> },
          { path: '/waitlist', element: <WaitlistPage /> },
          { path: '/waitlist/:id', element: <CustomerPage /> },
          { path: '/openings', element: <OpeningsPage /> },
          { path: '/openings/:id', element: <OpeningPage /> },
        ],
      },
      {
        element: <Guard level="admin" />,
        children: [{ path: '/admin', element: <AdminPage /> }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
