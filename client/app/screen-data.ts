// What a screen asks the server for as it first renders, besides the signed-in user: GET paths
// under /api, by role area and route. index.html's start-up script (scripts/start-preload.ts)
// asks for them as the page starts, alongside the screen's code; the screen's own first request
// of each takes that answer (client/lib/api-client.ts).
export const SCREEN_DATA: Record<string, readonly string[]> = {
  'admin /': ['/admin/dashboard'],
  'client /': ['/client/dashboard'],
  'client /blast-form': ['/public/settings'],
  'client /topup': ['/pricing', '/public/settings'],
};
