-- Issue 21: the demo catalogue's Arabic names as a Lebanese reader writes them. The seed only
-- inserts what is missing, so a database seeded before keeps the old texts; this rewrites each
-- one only where it still holds the text the seed gave it: a name the broker changed stays theirs.
UPDATE "plans" SET "name_ar" = 'شنغن المبسّطة' WHERE "id" = 107 AND "name_ar" = 'شنغن الأساسي';--> statement-breakpoint
UPDATE "plans" SET "coverage_name_ar" = 'مبسّطة' WHERE "id" = 107 AND "coverage_name_ar" = 'أساسي';--> statement-breakpoint
UPDATE "plans" SET "name_ar" = 'العالمية القياسية' WHERE "id" = 108 AND "name_ar" = 'العالم القياسية';--> statement-breakpoint
UPDATE "plans" SET "name_ar" = 'شنغن السنوية متعددة الرحلات' WHERE "id" = 113 AND "name_ar" = 'شنغن السنوية المتعددة';--> statement-breakpoint
UPDATE "plans" SET "name_ar" = 'الذكية السنوية' WHERE "id" = 114 AND "name_ar" = 'الذكي السنوي';--> statement-breakpoint
UPDATE "plan_addons" SET "label_ar" = 'تغطية مبلغ التحمّل للسيارة المستأجرة' WHERE "code" = 'rental_car_excess' AND "label_ar" = 'مبلغ التحمل للسيارة المستأجرة';--> statement-breakpoint
UPDATE "plan_features" SET "label_ar" = 'إعادة جثمان المتوفى إلى بلده' WHERE "key" = 'repatriation' AND "label_ar" = 'إعادة الرفات إلى الوطن';--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'السيدة (متزوجة)' WHERE "kind" = 'prefex' AND "id" = 2 AND "name_ar" = 'السيدة';--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'السيدة' WHERE "kind" = 'prefex' AND "id" = 3 AND "name_ar" = 'الآنسة';--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'د.' WHERE "kind" = 'prefex' AND "id" = 4 AND "name_ar" = 'الدكتور';--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'سنوية متعددة الرحلات' WHERE "kind" = 'trip_types' AND "id" = 2 AND "name_ar" = 'سنوي متعدد الرحلات';--> statement-breakpoint
UPDATE "company_info" SET "name" = '«سفر» لوساطة التأمين (تجريبي)' WHERE "lang" = 'ar' AND "name" = 'سفر لوساطة التأمين (تجريبي)';--> statement-breakpoint
UPDATE "company_info" SET "disclaimer" = '«سفر» وسيط تجريبي لتأمين السفر. شركات التأمين المعروضة وهمية، ولا تصدر عنها أي تغطية حقيقية.' WHERE "lang" = 'ar' AND "disclaimer" = 'سفر وسيط تأمين سفر تجريبي. شركات التأمين المعروضة وهمية ولا تصدر أي تغطية حقيقية.';
