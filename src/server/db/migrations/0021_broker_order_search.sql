-- Issue 36: the broker's order search and list (orders/order-admin.ts) without reading every lead or order.
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("email");--> statement-breakpoint
CREATE INDEX "leads_phone_reversed_idx" ON "leads" USING btree (reverse("complete_phone_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at","id");