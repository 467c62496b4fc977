package aws

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/planwarden/planwarden/app/port"
)

// Table layout: one table, partition key KeyAttribute (a string), no sort
// key, DynamoDB TTL on TTLAttribute (epoch seconds). Items:
//
//	pk = "delivery#<X-GitHub-Delivery>", expires_at, attempt (written after the job was sent; ForgetDelivery deletes it)
//	pk = "pr#<owner>/<repo>#<n>",        expires_at, version, attempt, state (a map of port.PRState's JSON fields)
//
// version counts the writes of a PR's state; PutPR is conditional on it.
// attempt is a random token of the call that wrote the item, so that a
// call whose write landed but whose answer was lost knows its own write
// when the SDK's retry fails the condition.
//
// DynamoDB deletes expired items lazily (within days), so reads and the
// delivery condition treat an item past expires_at as absent.
const (
	KeyAttribute     = "pk"
	TTLAttribute     = "expires_at"
	VersionAttribute = "version"

	stateAttribute = "state"
	// attemptAttribute: the token of the MarkDelivery or PutPR call that
	// wrote an item.
	attemptAttribute = "attempt"
	deliveryPrefix   = "delivery#"
	prPrefix         = "pr#"
)

// Store is the App's Store port on DynamoDB; it is also a
// port.DeliveryChecker and a port.DeliveryForgetter.
type Store struct {
	client *dynamodb.Client
	table  string
	now    func() time.Time
}

var (
	_ port.Store             = (*Store)(nil)
	_ port.DeliveryChecker   = (*Store)(nil)
	_ port.DeliveryForgetter = (*Store)(nil)
)

// NewStore returns a Store on the table named table, laid out as described
// at KeyAttribute.
func NewStore(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table, now: time.Now}
}

// MarkDelivery records the delivery id with a conditional put: the put
// succeeds (and the delivery is new) only if no unexpired item has the id.
func (s *Store) MarkDelivery(ctx context.Context, deliveryID string, ttl time.Duration) (bool, error) {
	if deliveryID == "" {
		return false, errors.New("mark delivery: empty delivery id")
	}
	now := s.now()
	// The SDK retries a put whose answer it did not get (a 5xx, a broken
	// connection) though the first attempt may have landed; the retry then
	// fails the condition on the item it wrote itself. Each call writes a
	// token of its own and reads the item back on a failed condition, so
	// its own earlier attempt is no duplicate.
	attempt := attemptToken()
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: sdkaws.String(s.table),
		Item: map[string]types.AttributeValue{
			KeyAttribute:     &types.AttributeValueMemberS{Value: deliveryPrefix + deliveryID},
			TTLAttribute:     epoch(now.Add(ttl)),
			attemptAttribute: &types.AttributeValueMemberS{Value: attempt},
		},
		ConditionExpression:                 sdkaws.String("attribute_not_exists(#pk) OR #exp <= :now"),
		ExpressionAttributeNames:            map[string]string{"#pk": KeyAttribute, "#exp": TTLAttribute},
		ExpressionAttributeValues:           map[string]types.AttributeValue{":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)}},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return wroteIt(failed, attempt), nil
	}
	if err != nil {
		return false, fmt.Errorf("mark delivery %s in dynamodb: %w", deliveryID, err)
	}
	return true, nil
}

// DeliverySeen reports whether an unexpired item marks the delivery key,
// with a consistent read and writing nothing: the receiver asks before it
// sends the job, and marks the delivery only after the send succeeded (see
// port.DeliveryChecker).
func (s *Store) DeliverySeen(ctx context.Context, deliveryID string) (bool, error) {
	if deliveryID == "" {
		return false, errors.New("look up delivery: empty delivery id")
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                sdkaws.String(s.table),
		Key:                      map[string]types.AttributeValue{KeyAttribute: &types.AttributeValueMemberS{Value: deliveryPrefix + deliveryID}},
		ConsistentRead:           sdkaws.Bool(true),
		ProjectionExpression:     sdkaws.String("#exp"),
		ExpressionAttributeNames: map[string]string{"#exp": TTLAttribute},
	})
	if err != nil {
		return false, fmt.Errorf("look up delivery %s in dynamodb: %w", deliveryID, err)
	}
	return out.Item != nil && !expired(out.Item[TTLAttribute], s.now()), nil
}

// attemptToken is a random token for one conditional put (attemptAttribute).
func attemptToken() string {
	token := make([]byte, 12)
	rand.Read(token)
	return hex.EncodeToString(token)
}

// wroteIt reports whether the item that failed a conditional put (returned
// with ReturnValuesOnConditionCheckFailure ALL_OLD) is the one this call's
// own earlier attempt wrote: the SDK retries a put whose answer it did not
// get (a 5xx, a broken connection) though the first attempt may have
// landed, and the retry then fails the condition on its own write.
func wroteIt(failed *types.ConditionalCheckFailedException, attempt string) bool {
	mine, _ := failed.Item[attemptAttribute].(*types.AttributeValueMemberS)
	return mine != nil && mine.Value == attempt
}

// ForgetDelivery deletes the delivery id's item, so that GitHub's
// "Redeliver" of a delivery that could not be queued is new again (see
// port.DeliveryForgetter). Forgetting an id never marked is no error.
func (s *Store) ForgetDelivery(ctx context.Context, deliveryID string) error {
	if deliveryID == "" {
		return errors.New("forget delivery: empty delivery id")
	}
	_, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: sdkaws.String(s.table),
		Key:       map[string]types.AttributeValue{KeyAttribute: &types.AttributeValueMemberS{Value: deliveryPrefix + deliveryID}},
	})
	if err != nil {
		return fmt.Errorf("forget delivery %s in dynamodb: %w", deliveryID, err)
	}
	return nil
}

// PR reads the state of one pull request with a consistent read.
func (s *Store) PR(ctx context.Context, key string) (port.PRState, bool, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      sdkaws.String(s.table),
		Key:            map[string]types.AttributeValue{KeyAttribute: &types.AttributeValueMemberS{Value: prPrefix + key}},
		ConsistentRead: sdkaws.Bool(true),
	})
	if err != nil {
		return port.PRState{}, false, fmt.Errorf("get pr state %s from dynamodb: %w", key, err)
	}
	if out.Item == nil || expired(out.Item[TTLAttribute], s.now()) {
		return port.PRState{}, false, nil
	}
	var st port.PRState
	if err := attributevalue.UnmarshalWithOptions(out.Item[stateAttribute], &st, func(o *attributevalue.DecoderOptions) { o.TagKey = "json" }); err != nil {
		return port.PRState{}, false, fmt.Errorf("decode pr state %s: %w", key, err)
	}
	// The item's version attribute is the one the write condition checks.
	// An item written before versions existed has none and reads as
	// version 0, which PutPR may replace once.
	st.Version = 0
	if n, ok := out.Item[VersionAttribute].(*types.AttributeValueMemberN); ok {
		st.Version, _ = strconv.ParseInt(n.Value, 10, 64)
	}
	return st, true, nil
}

// PutPR writes the state of one pull request if the stored version is
// still st.Version: a conditional put (ConditionExpression) on the item's
// version attribute, so of two jobs that read one version only the first
// write lands; the other gets port.ErrConflict and re-reads. A put the
// SDK retried after its answer was lost is no conflict with itself
// (wroteIt): the caller would re-apply its change on top of its own write,
// and a change that reads what it finds (a revoked override counted as
// gone) would then tell the user that nothing was done.
func (s *Store) PutPR(ctx context.Context, key string, st port.PRState, ttl time.Duration) error {
	if key == "" {
		return errors.New("put pr state: empty key")
	}
	read := st.Version
	st.Version = read + 1
	av, err := attributevalue.MarshalWithOptions(st, func(o *attributevalue.EncoderOptions) { o.TagKey = "json" })
	if err != nil {
		return fmt.Errorf("encode pr state %s: %w", key, err)
	}
	now := s.now()
	attempt := attemptToken()
	in := &dynamodb.PutItemInput{
		TableName: sdkaws.String(s.table),
		Item: map[string]types.AttributeValue{
			KeyAttribute:     &types.AttributeValueMemberS{Value: prPrefix + key},
			TTLAttribute:     epoch(now.Add(ttl)),
			VersionAttribute: &types.AttributeValueMemberN{Value: strconv.FormatInt(st.Version, 10)},
			attemptAttribute: &types.AttributeValueMemberS{Value: attempt},
			stateAttribute:   av,
		},
		ExpressionAttributeNames:            map[string]string{"#pk": KeyAttribute},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
	if read == 0 {
		// No state was read: there is none, it has expired, or it was
		// written before versions existed.
		in.ConditionExpression = sdkaws.String("attribute_not_exists(#pk) OR #exp <= :now OR attribute_not_exists(#v)")
		in.ExpressionAttributeNames["#exp"] = TTLAttribute
		in.ExpressionAttributeNames["#v"] = VersionAttribute
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)}}
	} else {
		in.ConditionExpression = sdkaws.String("attribute_exists(#pk) AND #v = :v")
		in.ExpressionAttributeNames["#v"] = VersionAttribute
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":v": &types.AttributeValueMemberN{Value: strconv.FormatInt(read, 10)}}
	}
	_, err = s.client.PutItem(ctx, in)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		if wroteIt(failed, attempt) {
			return nil
		}
		return fmt.Errorf("put pr state %s at version %d: %w", key, read, port.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("put pr state %s to dynamodb: %w", key, err)
	}
	return nil
}

// epoch is a DynamoDB TTL value: whole seconds since 1970, rounded up so
// an item never expires before its ttl.
func epoch(t time.Time) types.AttributeValue {
	sec := t.Unix()
	if t.Nanosecond() > 0 {
		sec++
	}
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(sec, 10)}
}

func expired(av types.AttributeValue, now time.Time) bool {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && sec <= now.Unix()
}
