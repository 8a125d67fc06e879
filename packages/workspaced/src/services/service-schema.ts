/**
 * @module What `POST /services` accepts: a name (1-64 of `A-Z a-z 0-9 . _ -`, starting with a
 * letter or digit, so it is safe in a URL path), a TCP port, an optional http(s) URL without
 * user name or password (every `services.view` holder reads it) and an optional project.
 */
import { z } from 'zod';

const serviceNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const serviceUrl = z
  .string()
  .max(2_048)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  }, 'an http or https URL without user name or password');

export const newServiceSchema = z.object({
  name: z
    .string()
    .regex(serviceNamePattern, 'name: 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit'),
  port: z.number().int().min(1).max(65_535),
  url: serviceUrl.nullable().default(null),
  project_id: z.number().int().positive().nullable().default(null),
});
