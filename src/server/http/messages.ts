import type { Language } from '../../contract/endpoint';

/**
 * Human-readable API messages in both languages. Clients show their own translation of the
 * field codes; this text is for people reading responses and for the payments page.
 */
export const MESSAGES = {
  ok: { en: 'OK', ar: 'تم' },
  invalid_request: { en: 'Some fields are missing or invalid.', ar: 'بعض الحقول ناقصة أو غير صحيحة.' },
  invalid_json: { en: 'The request body is not valid JSON.', ar: 'نص الطلب ليس بصيغة JSON صحيحة.' },
  signature_missing: {
    en: 'The request is not signed: X-Nonce, X-Timestamp and X-Signature headers are required.',
    ar: 'الطلب غير موقّع: يجب إرسال الترويسات X-Nonce وX-Timestamp وX-Signature.',
  },
  signature_invalid: {
    en: 'The request signature does not match its content.',
    ar: 'توقيع الطلب لا يطابق محتواه.',
  },
  timestamp_skew: {
    en: 'The request timestamp is more than 5 minutes away from the server clock.',
    ar: 'يختلف وقت الطلب عن وقت الخادم بأكثر من 5 دقائق.',
  },
  nonce_reused: {
    en: 'This request was already received; a replayed request is refused.',
    ar: 'وصلنا هذا الطلب من قبل، ولا نقبل الطلب نفسه مرتين.',
  },
  not_found: { en: 'Not found.', ar: 'غير موجود.' },
  email_taken: {
    en: 'This email is already registered with another phone number.',
    ar: 'سبق أن سُجِّل هذا البريد الإلكتروني مع رقم هاتف آخر.',
  },
  phone_taken: {
    en: 'This phone number is already registered with another email.',
    ar: 'سبق أن سُجِّل رقم الهاتف هذا مع بريد إلكتروني آخر.',
  },
  email_phone_taken: {
    en: 'This email and this phone number are already registered, each with other details.',
    ar: 'سبق أن سُجِّل هذا البريد الإلكتروني ورقم الهاتف هذا، كلٌّ منهما مع بيانات أخرى.',
  },
  contact_locked: {
    en: 'The e-mail and phone number of a saved trip can only be changed from the device or link it was saved with. Keep them as they are, or start a new quote.',
    ar: 'لا يمكن تغيير البريد الإلكتروني ورقم الهاتف لرحلة محفوظة إلا من الجهاز أو الرابط الذي حُفظت منه. اتركهما كما هما، أو اطلب عرض سعر جديدًا.',
  },
  agent_mismatch: {
    en: 'This trip was brought by another agent; it cannot be credited to this one.',
    ar: 'سجّل هذه الرحلةَ وكيلٌ آخر، فلا يمكن نسبها إلى هذا الوكيل.',
  },
  method_not_allowed: { en: 'Use POST with a JSON body.', ar: 'استخدم POST مع نص بصيغة JSON.' },
  payload_too_large: { en: 'The request body is too large.', ar: 'نص الطلب كبير جدًا.' },
  server_error: {
    en: 'Something went wrong on our side. Please try again.',
    ar: 'حدث خطأ من جهتنا. يرجى المحاولة مرة أخرى.',
  },
  service_unavailable: {
    en: 'The service is briefly unavailable. Please try again in a few seconds.',
    ar: 'الخدمة غير متاحة مؤقتًا. يرجى المحاولة مرة أخرى بعد بضع ثوانٍ.',
  },
  bot_check_failed: {
    en: 'The security check did not pass or was already used. Please try again.',
    ar: 'لم ينجح التحقق الأمني، أو سبق استخدامه. يرجى المحاولة مرة أخرى.',
  },
  bot_check_unavailable: {
    en: 'The security check could not be completed just now. Please try again in a moment.',
    ar: 'تعذّر إتمام التحقق الأمني الآن. يرجى المحاولة مجددًا بعد قليل.',
  },
  quote_expired: {
    en: 'This quote is no longer current. Please refresh the quotes and choose again.',
    ar: 'لم يعد هذا العرض ساريًا. يرجى تحديث العروض والاختيار مجددًا.',
  },
  lead_in_deal: {
    en: 'This trip has already been paid for; it cannot be bought again.',
    ar: 'سبق أن دُفع ثمن تأمين هذه الرحلة، فلا يمكن شراؤه مرة ثانية.',
  },
  agent_unknown: {
    en: 'This agent is not known or not active.',
    ar: 'هذا الوكيل غير مسجّل لدينا أو غير فعّال.',
  },
  rate_limited: {
    en: 'Too many requests. Please try again later.',
    ar: 'وصلتنا طلبات كثيرة في وقت قصير. يرجى المحاولة بعد قليل.',
  },
  plan_not_chosen: {
    en: 'No plan is chosen for this trip, or its details changed since. Choose a plan from the quotes first.',
    ar: 'لم تُختر أي خطة لهذه الرحلة، أو تغيّرت تفاصيلها بعد اختيار الخطة. اختر خطة من العروض أولًا.',
  },
  plan_changed: {
    en: 'The plan chosen for this trip has changed. Reload the page to review the travellers for the plan chosen now.',
    ar: 'تغيّرت الخطة المختارة لهذه الرحلة. أعد تحميل الصفحة لتراجع بيانات المسافرين على الخطة المختارة حاليًا.',
  },
  /** save-traveller-info error "dob" (RULINGS 8): {dob} is the date sent, DD/MM/YYYY. */
  dob_not_quoted: {
    en: 'The date of birth {dob} is not the one this quote was priced for. Change it in Travel details and get new quotes.',
    ar: 'تاريخ الميلاد {dob} يختلف عن التاريخ الذي احتُسب عليه سعر هذا العرض.',
  },
  /** save-traveller-info error "dob" (RULINGS 8): the traveller's age on the trip's first day is outside the plan's. */
  dob_outside_plan: {
    en: 'This plan covers travellers aged {min} to {max}, and this traveller is {age} on the day the trip starts. Check the date of birth in Travel details and get new quotes.',
    ar: 'تغطّي هذه الخطة المسافرين من عمر {min} حتى عمر {max}، وهذا المسافر بعمر {age} في أول يوم من الرحلة. تحقّق من تاريخ الميلاد في تفاصيل السفر واحصل على عروض جديدة.',
  },
  /** coupon/validate and temp-checkout (issue 10): each refused coupon has its own message, shown in red under the box. */
  coupon_required: { en: 'Enter a coupon code.', ar: 'أدخل رمز الخصم.' },
  coupon_unknown: {
    en: 'This coupon code is not valid. Check the code and try again.',
    ar: 'رمز الخصم هذا غير صالح. تحقّق منه وحاول مرة أخرى.',
  },
  coupon_expired: {
    en: 'This coupon has expired or is not valid yet.',
    ar: 'انتهت صلاحية رمز الخصم هذا، أو لم يبدأ العمل به بعد.',
  },
  coupon_used_up: {
    en: 'This coupon has already been used as many times as it allows.',
    ar: 'استُخدم رمز الخصم هذا كل المرات المسموح بها.',
  },
  coupon_wrong_provider: {
    en: "This coupon is not valid for the chosen insurer's plans.",
    ar: 'رمز الخصم هذا لا يسري على خطط شركة التأمين المختارة.',
  },
  /** temp-checkout: the total the page showed is not the server's (RULINGS 11); the fresh totals come with it. */
  totals_changed: {
    en: 'The amount to pay has changed. Please check the new total and proceed again.',
    ar: 'تغيّر المبلغ الذي عليك دفعه. راجع المجموع الجديد، ثم تابع من جديد.',
  },
  review_incomplete: {
    en: 'Complete the details of every traveller before checkout.',
    ar: 'أكمل بيانات جميع المسافرين قبل إتمام الشراء.',
  },
  /** The payments page (/pay/<merchant reference>), a plain server page in English or Arabic. */
  pay_brand: { en: 'Safar', ar: 'Safar سفر' },
  pay_title: { en: 'Secure payment', ar: 'الدفع الآمن' },
  pay_heading: { en: 'Pay for your travel insurance', ar: 'ادفع ثمن تأمين سفرك' },
  pay_intro: {
    en: 'Check your order, then pay by card on the secure payment page.',
    ar: 'راجع طلبك، ثم ادفع بالبطاقة على صفحة الدفع الآمنة.',
  },
  pay_insurer: { en: 'Insurer', ar: 'شركة التأمين' },
  pay_plan: { en: 'Plan', ar: 'الخطة' },
  pay_travellers: { en: 'Travellers', ar: 'المسافرون' },
  pay_trip_dates: { en: 'Trip dates', ar: 'تواريخ الرحلة' },
  /** {amount} is the total to the cent, e.g. "$94.57" (RULINGS 26). */
  pay_button: { en: 'Pay {amount}', ar: 'ادفع {amount}' },
  pay_price_summary: { en: 'Price summary', ar: 'ملخص السعر' },
  pay_processor_note: {
    en: 'Your card payment is handled by Amazon Payment Services. Safar never sees or stores your card details.',
    ar: 'تعالج Amazon Payment Services الدفع ببطاقتك، ولا يطّلع «سفر» على بيانات البطاقة ولا يحتفظ بها.',
  },
  pay_sandbox_note: {
    en: 'Test mode: the Pay button opens the Safar sandbox gateway, and no card is charged.',
    ar: 'وضع الاختبار: يفتح زر الدفع بوابة الدفع التجريبية من «سفر»، ولن يُقتطع أي مبلغ من أي بطاقة.',
  },
  pay_failed: { en: 'This payment did not go through', ar: 'لم تنجح عملية الدفع هذه' },
  pay_failed_text: {
    en: 'This payment attempt was declined or cancelled, so nothing was charged. To try again, go back to your checkout: each new attempt gets its own payment page.',
    ar: 'رُفضت محاولة الدفع هذه أو أُلغيت، فلم يُقتطع أي مبلغ. لتحاول من جديد، عُد إلى صفحة إتمام الشراء، فلكل محاولة صفحة دفع خاصة بها.',
  },
  pay_expired: { en: 'This payment page has expired', ar: 'انتهت صلاحية صفحة الدفع هذه' },
  pay_expired_text: {
    en: 'A payment page stays open for 24 hours, and only while your trip and plan stay as they were. Go back to your checkout to pay on a new one.',
    ar: 'تبقى صفحة الدفع مفتوحة 24 ساعة، ما دامت رحلتك وخطتك على حالهما. عُد إلى صفحة إتمام الشراء لتدفع عبر صفحة جديدة.',
  },
  /** payfort-data's refusals (409, with a field code under merchant_reference). */
  pay_order_paid: { en: 'This order is already paid.', ar: 'هذا الطلب مدفوع من قبل.' },
  pay_order_failed: {
    en: 'This payment attempt did not go through. Go back to checkout to try again.',
    ar: 'لم تنجح محاولة الدفع هذه. عُد إلى صفحة إتمام الشراء لتحاول من جديد.',
  },
  pay_order_expired: {
    en: 'This payment attempt has expired. Go back to checkout to pay with a new one.',
    ar: 'انتهت صلاحية محاولة الدفع هذه. عُد إلى صفحة إتمام الشراء لتدفع بمحاولة جديدة.',
  },
  pay_amount: { en: 'Amount to pay', ar: 'المبلغ المطلوب دفعه' },
  pay_order_amount: { en: 'Order amount', ar: 'مبلغ الطلب' },
  pay_reference: { en: 'Order reference', ar: 'الرقم المرجعي للطلب' },
  pay_already_paid: { en: 'This order is already paid', ar: 'هذا الطلب مدفوع من قبل' },
  pay_already_paid_text: {
    en: 'There is nothing more to pay. Your policy will be issued and sent to you by e-mail.',
    ar: 'لم يبقَ أي مبلغ لتدفعه. ستصدر بوليصة التأمين ونرسلها إليك بالبريد الإلكتروني.',
  },
  pay_already_paid_issued_text: {
    en: 'There is nothing more to pay: your policy has been issued and sent to you by e-mail. You can also download its certificate here.',
    ar: 'لم يبقَ أي مبلغ لتدفعه: صدرت بوليصة التأمين وأرسلناها إليك بالبريد الإلكتروني، ويمكنك أيضًا تنزيل شهادتها من هنا.',
  },
  pay_certificate_link: { en: 'Download the policy certificate (PDF)', ar: 'تنزيل شهادة بوليصة التأمين (PDF بالإنجليزية)' },
  pay_not_found: { en: 'Payment not found', ar: 'لم نجد عملية الدفع هذه' },
  pay_not_found_text: {
    en: 'No order has this reference. Go back to checkout and proceed again to get a new one.',
    ar: 'لا يدلّ هذا الرابط على أي طلب لدينا. عُد إلى صفحة إتمام الشراء وتابع من جديد لتحصل على صفحة دفع جديدة.',
  },
  /** The embedded APS sandbox gateway (RULINGS 20): every page says it is a sandbox. */
  sandbox_title: { en: 'Safar sandbox gateway', ar: 'بوابة الدفع التجريبية من «سفر»' },
  sandbox_banner_title: { en: 'Sandbox: for testing only', ar: 'بيئة تجريبية: للاختبار فقط' },
  sandbox_banner_text: {
    en: 'This is the Safar sandbox gateway, a stand-in for Amazon Payment Services. No real card is charged.',
    ar: 'هذه بوابة الدفع التجريبية من «سفر»، وتحلّ محلّ Amazon Payment Services في الاختبار. لا يُقتطع أي مبلغ من أي بطاقة حقيقية.',
  },
  /** {card} is the test card number, e.g. "4005 5500 0000 0001". */
  sandbox_test_card: {
    en: 'Test card {card} succeeds with any future expiry date and any CVV. Any other valid card number is declined.',
    ar: 'تنجح بطاقة الاختبار {card} مع أي تاريخ انتهاء لم يحن بعد وأي رمز أمان، ويُرفض أي رقم بطاقة صالح آخر.',
  },
  sandbox_card_heading: { en: 'Pay by card', ar: 'الدفع بالبطاقة' },
  sandbox_merchant_reference: { en: 'Merchant reference', ar: 'الرقم المرجعي للتاجر' },
  sandbox_amount: { en: 'Amount', ar: 'المبلغ' },
  sandbox_card_number: { en: 'Card number', ar: 'رقم البطاقة' },
  sandbox_expiry: { en: 'Expiry date (MM/YY)', ar: 'تاريخ الانتهاء (الشهر/السنة)' },
  /** The expiry field's placeholder: the format in the page's language, as its label says it. */
  sandbox_expiry_placeholder: { en: 'MM/YY', ar: 'شهر/سنة' },
  sandbox_cvv: { en: 'Security code (CVV)', ar: 'رمز الأمان (CVV)' },
  sandbox_card_holder: { en: 'Name on card', ar: 'الاسم على البطاقة' },
  /** {amount} is the exact amount with its currency code, e.g. "USD 147.63". */
  sandbox_pay: { en: 'Pay {amount}', ar: 'ادفع {amount}' },
  sandbox_cancel: { en: 'Cancel', ar: 'إلغاء' },
  sandbox_errors_summary: { en: 'Check these fields:', ar: 'راجِع هذه الحقول:' },
  sandbox_error_required: { en: 'Fill in this field.', ar: 'هذا الحقل مطلوب.' },
  sandbox_error_card_number: { en: 'Enter the card number: 13 to 19 digits.', ar: 'أدخل رقم البطاقة: من 13 إلى 19 رقمًا.' },
  sandbox_error_card_checksum: { en: 'This card number is not valid. Check the digits.', ar: 'رقم البطاقة هذا غير صالح. تحقّق من الأرقام.' },
  sandbox_error_expiry: { en: 'Enter the expiry date as MM/YY, for example 08/29.', ar: 'أدخل تاريخ الانتهاء بصيغة الشهر/السنة، مثل 08/29.' },
  sandbox_error_expired: { en: 'This card has expired.', ar: 'انتهت صلاحية هذه البطاقة.' },
  sandbox_error_cvv: { en: 'Enter the 3 or 4 digit security code.', ar: 'أدخل رمز الأمان المكوّن من 3 أو 4 أرقام.' },
  sandbox_error_name: {
    en: 'Enter the name as it is on the card, up to 50 characters.',
    ar: 'أدخل الاسم كما هو مكتوب على البطاقة، بحد أقصى 50 حرفًا.',
  },
  sandbox_return_success: { en: 'Payment accepted', ar: 'قُبلت عملية الدفع' },
  sandbox_return_declined: { en: 'Payment declined', ar: 'رُفضت عملية الدفع' },
  sandbox_return_cancelled: { en: 'Payment cancelled', ar: 'أُلغيت عملية الدفع' },
  sandbox_return_refused: { en: 'Payment request refused', ar: 'رُفض طلب الدفع' },
  sandbox_return_duplicate: { en: 'This merchant reference was used already', ar: 'سبق استخدام هذا الرقم المرجعي للتاجر' },
  sandbox_return_duplicate_text: {
    en: 'Like Amazon Payment Services, this gateway takes one payment request per merchant reference, and this reference already had one. No card page opens and nothing is charged now. The merchant’s site shows where that payment stands.',
    ar: 'تقبل هذه البوابة، مثل Amazon Payment Services، طلب دفع واحدًا لكل رقم مرجعي للتاجر، وقد وصلها طلب بهذا الرقم من قبل. لذلك لن تُفتح صفحة البطاقة ولن يُقتطع أي مبلغ الآن. يعرض لك موقع التاجر حالة تلك العملية.',
  },
  sandbox_return_text: { en: 'Taking you back to the merchant’s site…', ar: 'جارٍ إعادتك إلى موقع التاجر…' },
  sandbox_return_button: { en: 'Return to the merchant', ar: 'العودة إلى التاجر' },
  sandbox_response: { en: 'Gateway response', ar: 'رد البوابة' },
  sandbox_bad_request: { en: 'This payment request cannot be processed', ar: 'تعذّرت معالجة طلب الدفع هذا' },
  sandbox_no_return_url_text: {
    en: 'The request has no valid return address, so the gateway cannot send you back. Go back to the merchant’s site and start the payment again.',
    ar: 'لا يتضمن الطلب عنوان عودة صالحًا، لذا لا تستطيع البوابة إعادتك. عُد إلى موقع التاجر وابدأ الدفع من جديد.',
  },
  sandbox_unknown_merchant_text: {
    en: 'The request names a merchant this sandbox gateway does not know. Go back to the merchant’s site and start the payment again.',
    ar: 'يشير الطلب إلى تاجر لا تعرفه بوابة الاختبار هذه. عُد إلى موقع التاجر وابدأ الدفع من جديد.',
  },
  sandbox_post_only_text: {
    en: 'Open this page with the Pay button on the merchant’s site.',
    ar: 'افتح هذه الصفحة من خلال زر الدفع في موقع التاجر.',
  },
  sandbox_session_unknown_text: {
    en: 'This payment session does not exist or has expired. Go back to the merchant’s site and press Pay again.',
    ar: 'جلسة الدفع هذه غير موجودة أو انتهت صلاحيتها. عُد إلى موقع التاجر واضغط على زر الدفع من جديد.',
  },
  pay_unavailable: { en: 'Payments are unavailable for a moment', ar: 'الدفع غير متاح مؤقتًا' },
  pay_unavailable_text: {
    en: 'Something went wrong on our side. Please reload this page in a minute.',
    ar: 'حدث خطأ من جهتنا. يرجى إعادة تحميل هذه الصفحة بعد دقيقة.',
  },
  pay_home: { en: 'Back to Safar', ar: 'العودة إلى Safar سفر' },
  verify_title: { en: 'Travel insurance check', ar: 'التحقق من تأمين السفر' },
  verify_valid: { en: 'This policy is valid today.', ar: 'هذه البوليصة سارية اليوم.' },
  verify_not_started: { en: 'This policy is issued; its cover has not started yet.', ar: 'هذه البوليصة صادرة، ولم تبدأ تغطيتها بعد.' },
  verify_expired: { en: 'This policy has expired: its cover has ended.', ar: 'انتهت صلاحية هذه البوليصة وانتهت تغطيتها.' },
  verify_cancelled: { en: 'This policy was cancelled: it gives no cover.', ar: 'أُلغيت هذه البوليصة، فلا تغطية لها.' },
  verify_policy: { en: 'Policy number', ar: 'رقم البوليصة' },
  verify_medical: { en: 'Medical cover limit', ar: 'حدّ التغطية الطبية' },
  verify_destinations: { en: 'Destinations', ar: 'الوجهات' },
  verify_to_lebanon: { en: 'Lebanon', ar: 'لبنان' },
  verify_insured: { en: 'Insured travellers', ar: 'المسافرون المؤمَّن عليهم' },
  verify_note: {
    en: 'Checked against the broker’s records at the time this page was opened. Names show the first name, the initial of the last name and the year of birth only.',
    ar: 'جرى التحقق من سجلات الوسيط لحظة فتح هذه الصفحة. تظهر الأسماء بالاسم الأول والحرف الأول من اسم العائلة وسنة الميلاد فقط.',
  },
  verify_not_found_text: {
    en: 'No policy has this code. Check the code printed beside the QR code on the certificate.',
    ar: 'لا توجد بوليصة بهذا الرمز. تحقّق من الرمز المطبوع بجانب رمز QR على الشهادة.',
  },
  /** The policy page (issue 37 item 2): "Send it again" past RATE_LIMITS.policyResend. */
  policy_resend_limited: {
    en: 'The policy e-mail was already sent again several times this hour. Please try again later.',
    ar: 'أعدنا إرسال رسالة البوليصة عدة مرات خلال هذه الساعة. يرجى المحاولة مجددًا لاحقًا.',
  },
  /** The policy page: a cancellation request refused (409 cancellation_not_allowed). */
  cancellation_not_allowed: {
    en: 'A cancellation can be requested once, before the policy starts, and not for a cancelled policy.',
    ar: 'يمكن طلب الإلغاء مرة واحدة فقط، قبل بدء البوليصة، ولا يمكن طلبه لبوليصة مُلغاة.',
  },
  pay_back_to_checkout: { en: 'Back to checkout', ar: 'العودة إلى صفحة إتمام الشراء' },
  console_signed_out: { en: 'Sign in to the console first.', ar: 'سجّل الدخول إلى لوحة الإدارة أولًا.' },
  console_two_factor_required: {
    en: 'Set up your authenticator app first.',
    ar: 'اضبط تطبيق المصادقة أولًا.',
  },
  console_forbidden: { en: 'Your role cannot do this.', ar: 'صلاحياتك لا تسمح بهذا الإجراء.' },
  console_csrf: {
    en: 'This change did not come from the console page: reload it and try again.',
    ar: 'لم يأتِ هذا التعديل من صفحة لوحة الإدارة: أعد تحميلها وحاول مجددًا.',
  },
  console_code_used: {
    en: 'This code was used already: wait for the next one.',
    ar: 'استُخدم هذا الرمز من قبل: انتظر الرمز التالي.',
  },
  console_refused: { en: 'The change was refused.', ar: 'رُفض هذا التعديل.' },
  console_setup_invalid: {
    en: 'This setup link is used or out of date: ask an admin for a new one.',
    ar: 'رابط الإعداد هذا مستخدَم أو منتهي الصلاحية: اطلب رابطًا جديدًا من المسؤول.',
  },
} satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function message(key: MessageKey, lang: Language): string {
  return MESSAGES[key][lang];
}

/** A message with its {placeholders} filled in; a placeholder without a value stays as written. */
export function messageWith(key: MessageKey, lang: Language, values: Record<string, string | number>): string {
  return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
