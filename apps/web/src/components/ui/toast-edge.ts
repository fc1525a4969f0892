import { useEffect, useRef } from 'react';

/** The edge of the screen the toasts stand along. */
export type ToastEdge = 'top' | 'bottom';

/** Where toasts may change edge (the same width as in toast.css and tokens.css's phone breakpoint). */
export const PHONE_MEDIA_QUERY = '(max-width: 640px)';

/** The part of a pressed element that matters: where it stands on the screen. */
export type PressedArea = { top: number; bottom: number };

const pressableSelector = 'button, a[href], input, select, textarea, label, summary, [role="button"]';

/**
 * On a phone toasts take the half of the screen away from the control just pressed, so "Customer added" never
 * lands on "Add to waitlist" (issue 39): a press in the lower half sends them to the top, anything else (or no
 * press yet) keeps them rising from the bottom. A wider screen keeps them top-right, out of the way.
 */
export function chooseToastEdge(
  pressed: PressedArea | null,
  viewportHeight: number,
  phone: boolean,
): ToastEdge {
  if (!phone || !pressed || viewportHeight <= 0) return phone ? 'bottom' : 'top';
  const middle = (pressed.top + pressed.bottom) / 2;
  return middle > viewportHeight / 2 ? 'top' : 'bottom';
}

export function isPhoneScreen(): boolean {
  return typeof window.matchMedia === 'function' && Boolean(window.matchMedia(PHONE_MEDIA_QUERY)?.matches);
}

function areaOf(target: EventTarget | null, ignoreInside: string): PressedArea | null {
  if (!(target instanceof Element) || target.closest(ignoreInside)) return null;
  const element = target.closest(pressableSelector) ?? target;
  const { top, bottom } = element.getBoundingClientRect();
  return { top, bottom };
}

/**
 * Remembers where the owner last pressed: a tap or click, Enter or Space on a control, or a form sent with
 * Enter (its submit button). Presses on the toasts themselves (Undo, ×) are not counted.
 */
export function useLastPressedArea(ignoreInside: string) {
  const pressed = useRef<PressedArea | null>(null);
  useEffect(() => {
    const remember = (target: EventTarget | null) => {
      const area = areaOf(target, ignoreInside);
      if (area) pressed.current = area;
    };
    const onPointerDown = (event: PointerEvent) => remember(event.target);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') remember(event.target);
    };
    const onSubmit = (event: SubmitEvent) => remember(event.submitter ?? event.target);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('submit', onSubmit, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('submit', onSubmit, true);
    };
  }, [ignoreInside]);
  return pressed;
}
