/*
 * Loaded by index.html outside the app bundle (the first screen's JavaScript stays as it was): registers
 * the service worker after load and shows the offline banner while the browser is offline.
 */
(() => {
  const banner = document.getElementById('offline-banner');
  const show = () => {
    if (banner) banner.hidden = navigator.onLine;
  };
  window.addEventListener('online', show);
  window.addEventListener('offline', show);
  show();
  if ('serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
    });
  }
})();
