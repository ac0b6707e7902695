/** A customer whose details must never reach a log. */
export const CUSTOMER = {
  name: 'Zeina Khoury-Mansour',
  email: 'zeina.khoury.mansour@example.com',
  phone: '71987654',
  passport: 'LR7654321',
};
export const PERSONAL = [CUSTOMER.name, 'Zeina', 'Khoury', CUSTOMER.email, 'zeina.khoury', CUSTOMER.phone, '+96171987654', CUSTOMER.passport];
