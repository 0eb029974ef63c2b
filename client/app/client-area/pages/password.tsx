// Ubah Password (/password): the screen both shells share (shell/change-password-page.tsx), as
// this area's own screen module, so the start-up script finds it as it finds every screen.
export { default } from '#client/app/shell/change-password-page.tsx';
