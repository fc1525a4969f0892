/** One mark: a viewBox and its filled paths, hidden from assistive technology (the button names the provider). */
function Mark({
  viewBox,
  paths,
}: {
  viewBox: string;
  paths: readonly (readonly [fill: string, d: string])[];
}) {
  return (
    <svg viewBox={viewBox} aria-hidden="true" focusable="false">
      {paths.map(([fill, d]) => (
        <path key={d} fill={fill} d={d} />
      ))}
    </svg>
  );
}

const GOOGLE = [
  [
    '#EA4335',
    'M9 3.48c1.69 0 2.83.73 3.48 1.34l2.54-2.48C13.46.89 11.43 0 9 0 5.48 0 2.44 2.02.96 4.96l2.91 2.26C4.6 5.05 6.62 3.48 9 3.48z',
  ],
  [
    '#4285F4',
    'M17.64 9.2c0-.74-.06-1.28-.19-1.84H9v3.34h4.96c-.1.83-.64 2.08-1.84 2.92l2.84 2.2c1.7-1.57 2.68-3.88 2.68-6.62z',
  ],
  [
    '#FBBC05',
    'M3.88 10.78A5.54 5.54 0 0 1 3.58 9c0-.62.11-1.22.29-1.78L.96 4.96A9 9 0 0 0 0 9c0 1.45.35 2.82.96 4.04l2.92-2.26z',
  ],
  [
    '#34A853',
    'M9 18c2.43 0 4.47-.8 5.96-2.18l-2.84-2.2c-.76.53-1.78.9-3.12.9-2.38 0-4.4-1.57-5.12-3.74L.97 13.04C2.45 15.98 5.48 18 9 18z',
  ],
] as const;
const FACEBOOK = [
  [
    '#1877F2',
    'M18 9a9 9 0 1 0-10.4 8.9v-6.3H5.3V9h2.3V7c0-2.3 1.4-3.5 3.4-3.5 1 0 2 .2 2 .2v2.2h-1.1c-1.1 0-1.5.7-1.5 1.4V9h2.6l-.4 2.6h-2.2v6.3A9 9 0 0 0 18 9z',
  ],
] as const;
const APPLE = [
  [
    'currentColor',
    'M318.7 268.7c-.2-36.7 16.4-64.4 50-84.8-18.8-26.9-47.2-41.7-84.7-44.6-35.5-2.8-74.3 20.7-88.5 20.7-15 0-49.4-19.7-76.4-19.7C63.3 141.2 4 184.8 4 273.5q0 39.3 14.4 81.2c12.8 36.7 59 126.7 107.2 125.2 25.2-.6 43-17.9 75.8-17.9 31.8 0 48.3 17.9 76.4 17.9 48.6-.7 90.4-82.5 102.6-119.3-65.2-30.7-61.7-90-61.7-91.9zm-56.6-164.2c27.3-32.4 24.8-61.9 24-72.5-24.1 1.4-52 16.4-67.9 34.9-17.5 19.8-27.8 44.3-25.6 71.9 26.1 2 49.9-11.4 69.5-34.3z',
  ],
] as const;

/** The providers' marks for the sign-in buttons and the finish-signing-up screen. */
export function GoogleIcon() {
  return <Mark viewBox="0 0 18 18" paths={GOOGLE} />;
}

export function FacebookIcon() {
  return <Mark viewBox="0 0 18 18" paths={FACEBOOK} />;
}

export function AppleIcon() {
  return <Mark viewBox="0 0 384 512" paths={APPLE} />;
}
