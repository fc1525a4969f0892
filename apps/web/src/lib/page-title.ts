import { useEffect } from 'react';

const APP_NAME = 'Waitlist & Text';

/** Names the browser tab (and the history entry) after the page: "Offer rules · Settings · Waitlist & Text". */
export function usePageTitle(...parts: string[]) {
  const title = [...parts, APP_NAME].join(' · ');
  useEffect(() => {
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}
