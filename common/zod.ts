// The one zod instance both sides use, speaking Indonesian for the messages we do not write.
import { z } from 'zod';

z.config(z.locales.id());

export { z };
