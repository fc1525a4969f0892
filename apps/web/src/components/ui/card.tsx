import type { HTMLAttributes, Ref } from 'react';
import './card.css';

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement> & { ref?: Ref<HTMLDivElement> }) {
  return <div className={`card${className ? ` ${className}` : ''}`} {...rest} />;
}
