// Re-export so `components/ui/textarea.tsx` exists where people look for it.
export { Textarea } from './input.tsx';
