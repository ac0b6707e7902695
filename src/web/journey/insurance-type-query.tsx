import { useEffect, useRef } from 'react';
import { useInLocationContext, useLocation, useNavigate } from './app-location';
import { insuranceTypeOf, withInsuranceType, type InsuranceType } from './route-location';

/**
 * Spec §2: `insurance_type` is written into the query when the insurance (trip) type changes.
 * Renders nothing. Outside a router (a form rendered on its own in a test) there is no address
 * to write.
 */
export function InsuranceTypeQuery({ tripType }: { tripType: InsuranceType }) {
  return useInLocationContext() ? <WriteInsuranceType tripType={tripType} /> : null;
}

/**
 * The address is replaced, not pushed, through the router, so its location stays the one the
 * journey routes from (routeLocation keeps the rest of the query on every later step). The
 * first value is not written: it came from the query, a saved lead or the default.
 */
function WriteInsuranceType({ tripType }: { tripType: InsuranceType }) {
  const navigate = useNavigate();
  const location = useLocation();
  const previous = useRef(tripType);
  useEffect(() => {
    if (previous.current === tripType) return;
    previous.current = tripType;
    if (insuranceTypeOf(location.search) === tripType) return;
    navigate({ pathname: location.pathname, search: withInsuranceType(location.search, tripType), hash: location.hash }, { replace: true });
  }, [tripType, navigate, location]);
  return null;
}
